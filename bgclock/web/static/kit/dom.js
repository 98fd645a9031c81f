// @ts-check
/* bgclock: the one DOM builder every page uses, and what a page reads from
 * its own document. */

/** @typedef {Object<string, (string|number|boolean|null|undefined|EventListener)>} Attrs */

/**
 * An element: `attrs` sets "class" (className), "text" (textContent),
 * "on<event>" (a listener) and any attribute (null, undefined and false
 * leave it out); `children` are appended, null and undefined skipped.
 * @param {string} tag
 * @param {Attrs|null} [attrs]
 * @param {Array<Node|string|null|undefined>} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs, children) {
  const e = document.createElement(tag);
  if (attrs) for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children || []) if (c != null) e.append(c);
  return e;
}

/**
 * `el` with its children as arguments (the tournament screens' shape).
 * @param {string} tag
 * @param {Attrs|null} [attrs]
 * @param {...(Node|string|null|undefined)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) { return el(tag, attrs, children); }

/**
 * A button that runs `fn` when clicked.
 * @param {string} text
 * @param {function(): void} fn
 * @param {Attrs} [attrs]
 * @returns {HTMLElement}
 */
export function button(text, fn, attrs) {
  const b = h("button", Object.assign({ type: "button" }, attrs || {}), text);
  b.addEventListener("click", fn);
  return b;
}

/**
 * Run `build`, which replaces part of the page, and give the focus back to
 * the element that had it: the one with the same id in what was built (a
 * field keeps its caret and selection).  A page built again while the
 * director types, or tabs through it, then takes neither the field nor the
 * keys typed next.
 * @param {function(): void} build
 */
export function keepingFocus(build) {
  const had = document.activeElement;
  const id = had && had !== document.body ? had.id : "";
  /** @type {[number|null, number|null]|null} */
  let caret = null;
  if (had instanceof HTMLInputElement || had instanceof HTMLTextAreaElement) {
    try { caret = [had.selectionStart, had.selectionEnd]; } catch (e) { caret = null; }  // a type with no caret
  }
  build();
  if (!id || (had && had.isConnected)) return;
  const now = document.getElementById(id);
  if (!now || now === document.activeElement) return;
  now.focus({ preventScroll: true });
  if (caret && caret[0] != null && (now instanceof HTMLInputElement || now instanceof HTMLTextAreaElement)) {
    try { now.setSelectionRange(caret[0], caret[1]); } catch (e) { /* a type with no caret */ }
  }
}

/** The element with this id (the page's own markup: it is there).
 * @param {string} id @returns {HTMLElement} */
export function byId(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

/** The presets' time modes the server put in the page (#bg-presets), or {}.
 * @returns {import("./types.js").Presets} */
export function readPresets() {
  const node = typeof document !== "undefined" && document.getElementById("bg-presets");
  if (!node) return {};
  try { return JSON.parse(node.textContent || "{}"); } catch (e) { return {}; }
}

/** An input element (`el` typed for its value). @param {Attrs|null} [attrs] @returns {HTMLInputElement} */
export function inputEl(attrs) { return /** @type {HTMLInputElement} */ (el("input", attrs)); }

/** A select element (`el` typed for its value).
 * @param {Attrs|null} [attrs] @param {Array<Node|string|null|undefined>} [children] @returns {HTMLSelectElement} */
export function selectEl(attrs, children) { return /** @type {HTMLSelectElement} */ (el("select", attrs, children)); }
