// @ts-check
/* A screen module's own strings merged into the page's I18N (i18n.js, a
 * classic script loaded before the modules). */

/**
 * @typedef {{lang: string, STRINGS: Object<string, Object<string, string>>,
 *   t: function(string, Object<string, (string|number)>=): string,
 *   setLang: function(string): void, apply: function(Element): void}} I18n
 */

/** The page's I18N with `strings` (language -> key -> text) merged in.
 * @param {Object<string, Object<string, string>>} strings
 * @returns {I18n} */
export function withStrings(strings) {
  const found = /** @type {{I18N: I18n}} */ (/** @type {unknown} */ (globalThis)).I18N;
  for (const lang of Object.keys(strings)) {
    found.STRINGS[lang] = Object.assign(found.STRINGS[lang] || {}, strings[lang]);
  }
  return found;
}
