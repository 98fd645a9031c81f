// @ts-check
/* bgclock: the confirmation of a director's command, in a dialog.
 *
 * A double-click on the button that asks must never confirm: the dialog's
 * Confirm button is placed away from the pointer and from the opener, stays
 * disabled for GUARD_MS after it appears, and is disabled again while the
 * command is in flight (one ruling is sent once). */

/** Clicks on Confirm are ignored for this long after the dialog appears. */
export const GUARD_MS = 400;

/**
 * @typedef {{x: number, y: number}} Point
 * @typedef {{left: number, top: number, right: number, bottom: number}} Box
 */

/** @param {Box} r @param {Box} s @returns {boolean} */
function overlaps(r, s) {
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}

/** @param {Box} r @param {Point} p @returns {boolean} */
function inside(r, p) { return p.x >= r.left && p.x <= r.right && p.y >= r.top && p.y <= r.bottom; }

/**
 * The dialog's top (px) so that its Confirm button is clear of the opener and the pointer:
 * the half of the viewport the opener is not in.
 * @param {Box} opener @param {number} dialogHeight @param {number} viewportHeight
 * @returns {number}
 */
export function placeAway(opener, dialogHeight, viewportHeight) {
  const mid = (opener.top + opener.bottom) / 2;
  const room = Math.max(8, viewportHeight - dialogHeight - 8);
  return mid > viewportHeight / 2 ? 8 : Math.min(room, Math.max(8, opener.bottom + 24));
}

/**
 * Show the confirmation.
 * @param {{text: string, confirmLabel: string, cancelLabel: string, busyLabel: string,
 *          opener?: Element|null, point?: Point|null,
 *          onConfirm: () => Promise<unknown>|unknown}} opts
 *   onConfirm sends the command(s); the dialog closes when it settles.
 * @returns {HTMLDialogElement}
 */
export function openConfirm(opts) {
  let dlg = /** @type {HTMLDialogElement|null} */ (document.getElementById("dlg-confirm"));
  if (!dlg) {
    dlg = document.createElement("dialog");
    dlg.id = "dlg-confirm";
    dlg.className = "confirm-dlg";
    document.body.append(dlg);
  }
  if (dlg.open) dlg.close();
  const text = document.createElement("p");
  text.className = "confirm-text";
  text.textContent = opts.text;
  const ok = document.createElement("button");
  ok.type = "button"; ok.className = "act confirm"; ok.dataset.act = "confirm";
  ok.textContent = opts.confirmLabel; ok.disabled = true;
  const cancel = document.createElement("button");
  cancel.type = "button"; cancel.dataset.act = "cancel"; cancel.textContent = opts.cancelLabel;
  const row = document.createElement("div");
  row.className = "row confirm-row";
  row.append(cancel, ok);
  dlg.replaceChildren(text, row);
  const shownAt = performance.now();
  let sent = false;
  const d = dlg;
  cancel.onclick = () => d.close();
  ok.onclick = async () => {
    if (sent || performance.now() - shownAt < GUARD_MS) return;
    sent = true;
    ok.disabled = true; cancel.disabled = true;
    ok.textContent = opts.busyLabel;
    try { await opts.onConfirm(); } finally { if (d.open) d.close(); }
  };
  d.showModal();
  // away from what was clicked: the opener's box and the pointer
  const box = opts.opener ? opts.opener.getBoundingClientRect() : null;
  const h = d.getBoundingClientRect().height;
  if (box) {
    d.style.marginTop = placeAway(box, h, window.innerHeight) + "px";
    d.style.marginBottom = "auto";
  }
  const r = ok.getBoundingClientRect();
  if ((box && overlaps(r, box)) || (opts.point && inside(r, opts.point))) {
    d.style.marginTop = (r.top > window.innerHeight / 2 ? 8 : Math.max(8, window.innerHeight - h - 8)) + "px";
  }
  setTimeout(() => { if (!sent) ok.disabled = false; }, GUARD_MS);
  return d;
}
