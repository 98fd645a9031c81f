// @ts-check
/* bgclock: no control under the spot of the control before it
 * (docs/pages.md, "No control under the spot of the one before").
 *
 * For GUARD_MS after the controls inside `root` change (a control added,
 * removed, shown or hidden; a figure's text changing does not count), a
 * second tap at the same spot (within GUARD_PX) as the tap just before it
 * that lands on a different action is swallowed before any handler sees it:
 * a double tap on "Start the clock" never reaches the Stop or ☎ that takes
 * its place.  A tap elsewhere, or on the same action redrawn, goes through. */

export const GUARD_MS = 400, GUARD_PX = 40;

/**
 * What action a tap on `target` is: a button (by id, half, data-act, die,
 * number, reason, language and words) or a half's face; "" for anything else.
 * @param {EventTarget | null} target @returns {string}
 */
export function actionKey(target) {
  const node = target instanceof Element ? target.closest("button, .face") : null;
  if (!(node instanceof HTMLElement)) return "";
  const half = node.closest(".half");
  if (node.classList.contains("face")) return "face:" + (half ? half.id : "");
  const die = node.closest("[data-die]");
  return [node.id, half ? half.id : "", node.dataset.act || "", die ? die.getAttribute("data-die") : "",
    node.dataset.n || "", node.dataset.reason || "", node.dataset.lang || "", node.textContent].join("|");
}

export class TapGuard {
  /** @param {Document} doc @param {HTMLElement} root the part of the page whose controls move */
  constructor(doc, root) {
    /** when the controls last changed (performance.now()) */
    this.layoutAt = -Infinity;
    /** @type {string[]} the actions of the taps swallowed (tests read them) */
    this.guarded = [];
    this.last = { at: -Infinity, x: 0, y: 0, key: "" };
    new MutationObserver((records) => {
      const moved = records.some((r) => r.type === "attributes"
        || [...r.addedNodes, ...r.removedNodes].some((n) => n.nodeType === 1));
      if (moved) this.layoutAt = performance.now();
    }).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
    doc.addEventListener("click", (e) => this.onClick(e), true);
  }

  /** @param {MouseEvent} e */
  onClick(e) {
    const now = performance.now(), key = actionKey(e.target), last = this.last;
    const near = Math.abs(e.clientX - last.x) <= GUARD_PX && Math.abs(e.clientY - last.y) <= GUARD_PX;
    if (key && now - last.at < GUARD_MS && this.layoutAt > last.at && near && key !== last.key) {
      e.stopImmediatePropagation();
      e.preventDefault();
      this.guarded.push(key);
      return;
    }
    this.last = { at: now, x: e.clientX, y: e.clientY, key: key };
  }
}
