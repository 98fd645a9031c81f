// @ts-check
/* bgclock: beeps and vibration (the low-time warnings, the director's alerts). */

/** @type {AudioContext|null} */
let audio = null;

/** Make sound possible (a browser allows it only after a user's gesture). */
export function unlockAudio() {
  try {
    if (!audio) {
      const w = /** @type {{AudioContext?: typeof AudioContext, webkitAudioContext?: typeof AudioContext}} */ (
        /** @type {unknown} */ (globalThis));
      const Ctor = w.AudioContext || w.webkitAudioContext;
      if (!Ctor) return;
      audio = new Ctor();
    }
    if (audio.state === "suspended") audio.resume();
  } catch (e) { audio = null; }
}

/** n short beeps (a WebAudio square wave, 880 Hz) of `ms` each; false when
 * the page cannot sound. @param {number} n @param {number} [ms] @returns {boolean} */
export function beep(n, ms) {
  unlockAudio();
  if (!audio) return false;
  const len = (ms || 150) / 1000;
  const t0 = audio.currentTime + 0.01;
  for (let i = 0; i < n; i++) {
    const o = audio.createOscillator(), g = audio.createGain();
    o.type = "square"; o.frequency.value = 880;
    g.gain.setValueAtTime(0.0001, t0 + i * len * 2);
    g.gain.exponentialRampToValueAtTime(0.3, t0 + i * len * 2 + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * len * 2 + len);
    o.connect(g).connect(audio.destination);
    o.start(t0 + i * len * 2); o.stop(t0 + i * len * 2 + len + 0.02);
  }
  return true;
}

/** Vibrate with `pattern` where the device can. @param {number|number[]} pattern @returns {boolean} */
export function vibrate(pattern) {
  try { return typeof navigator !== "undefined" && navigator.vibrate ? navigator.vibrate(pattern) : false; }
  catch (e) { return false; }
}
