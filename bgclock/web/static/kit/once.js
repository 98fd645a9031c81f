// @ts-check
/* bgclock: a director's request sent once while it is on its way.
 *
 * A double click on "Create" (or Enter pressed again) must not send the
 * request twice: the second one made a second tournament or table of the same
 * name, or was refused as a duplicate of the first, so the director saw an
 * error although the first had been done.  `once(name, fn)` runs `fn` unless
 * the action `name` is already on its way; meanwhile the buttons that carry
 * it (`data-once="name"`: `onceAttrs`, `submitOnce`) are disabled, those built
 * again meanwhile as well, and once it has settled (answered, refused, or the
 * network failed) they are enabled again, so the director may try again. */

/** The actions on their way, by name. @type {Set<string>} */
const away = new Set();

/** @param {string} name @param {boolean} on */
function mark(name, on) {
  document.querySelectorAll("[data-once=\"" + CSS.escape(name) + "\"]").forEach((b) => {
    if (b instanceof HTMLButtonElement || b instanceof HTMLInputElement) b.disabled = on;
  });
}

/**
 * Run `fn` as the action `name`, unless that action is already on its way
 * (then nothing is done).  Its buttons are disabled until `fn` settles.
 * @param {string} name
 * @param {function(): Promise<unknown>} fn
 * @returns {Promise<void>} settled when `fn` has (rejected as `fn` is)
 */
export async function once(name, fn) {
  if (away.has(name)) return;  // a second click: the first one's request is on its way
  away.add(name);
  mark(name, true);
  try {
    await fn();
  } finally {
    away.delete(name);
    mark(name, false);
  }
}

/**
 * The attributes of a button that runs the action `name` through `once`
 * (for `kit/dom.js`'s `button`): built disabled while it is on its way.
 * @param {string} name
 * @returns {import("./dom.js").Attrs}
 */
export function onceAttrs(name) { return { "data-once": name, disabled: away.has(name) }; }

/**
 * A form whose submission (its button clicked, or Enter in a field) runs
 * `fn` as the action `name`, once while it is on its way; the page does not
 * navigate.  `fn` says its own failure (the returned promise of `once` is
 * not awaited by anyone here).
 * @param {HTMLElement} form
 * @param {string} name
 * @param {function(): Promise<void>} fn
 */
export function submitOnce(form, name, fn) {
  form.querySelectorAll("button[type=submit], input[type=submit]").forEach((b) => b.setAttribute("data-once", name));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    once(name, fn);
  });
}
