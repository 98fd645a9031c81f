// @ts-check
/* bgclock: the table's screen stays awake (docs/pages.md, "The screen stays
 * awake").
 *
 * The Wake Lock API where the browser has it (a secure origin), else a
 * muted, looping 2-pixel video the page makes from a canvas's stream
 * (nothing fetched, nothing for the CSP to refuse; Chromium keeps the screen
 * on while a visible video plays, and a stream is exempt from its size
 * rule).  `how` says which holds: "lock", "video", or "off" when neither
 * does; the page never claims an awake screen it does not have. */

/** @typedef {"pending" | "lock" | "video" | "off"} Awake */

export class ScreenAwake {
  /** @param {Document} doc @param {(how: Awake) => void} onChange */
  constructor(doc, onChange) {
    this.doc = doc;
    this.onChange = onChange;
    /** @type {Awake} */
    this.how = "pending";
    /** @type {WakeLockSentinel | null} */
    this.lock = null;
    /** @type {HTMLVideoElement | null} */
    this.video = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.painter = undefined;
    doc.addEventListener("visibilitychange", () => { if (doc.visibilityState === "visible") this.keep(); });
  }

  /** @param {Awake} how */
  set(how) {
    this.how = how;
    this.onChange(how);
  }

  /** Keep the screen awake now (again after the page was hidden). */
  async keep() {
    if (this.doc.visibilityState !== "visible") return;
    if ("wakeLock" in navigator && navigator.wakeLock) {
      try {
        if (!this.lock) {
          const lock = await navigator.wakeLock.request("screen");
          this.lock = lock;
          lock.addEventListener("release", () => { this.lock = null; if (this.how === "lock") this.set("off"); });
        }
        this.set("lock");
        return;
      } catch (e) { this.lock = null; }
    }
    await this.playVideo();
  }

  async playVideo() {
    try {
      if (!this.video) {
        const canvas = this.doc.createElement("canvas");
        canvas.width = 2; canvas.height = 2;
        const g = canvas.getContext("2d");
        if (!g || typeof canvas.captureStream !== "function") throw new Error("no canvas stream");
        let n = 0;
        const paint = () => { n ^= 1; g.fillStyle = n ? "#000" : "#010101"; g.fillRect(0, 0, 2, 2); };
        paint();
        this.painter = setInterval(paint, 1000);   // a stream sends a frame only when the canvas changes
        const video = this.doc.createElement("video");
        video.className = "keep-awake";
        video.setAttribute("aria-hidden", "true");
        video.muted = true; video.playsInline = true; video.loop = true;
        video.srcObject = canvas.captureStream(1);
        video.addEventListener("pause", () => { if (this.how === "video") this.set("off"); });
        this.doc.body.append(video);
        this.video = video;
      }
      await this.video.play();
      this.set(this.video.paused ? "off" : "video");
    } catch (e) {
      clearInterval(this.painter);
      this.set("off");
    }
  }
}
