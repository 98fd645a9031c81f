// @ts-check
/* bgclock table page: the page's fixed parts (table.html), found once. */
import { byId } from "../../kit/dom.js";
import { ui } from "../state.js";

/** @typedef {import("../../kit/types.js").Side} Side */

export const $ = byId;
/** The two halves, each facing its player. */
export const halves = { A: $("half-A"), B: $("half-B") };
/** The first element matching `cls` in `side`'s half (table.html has it).
 * @param {Side} side @param {string} cls @returns {HTMLElement} */
export function q(side, cls) { return /** @type {HTMLElement} */ (halves[side].querySelector(cls)); }

/** The page full screen (or back), the screen kept awake. */
export function fullscreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  ui.wake();
}
