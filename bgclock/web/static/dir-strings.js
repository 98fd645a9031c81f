/* bgclock dashboard: the strings of the dashboard's newer screens (English, Italian),
 * merged into I18N's dictionary (kept apart so the shared i18n.js only grows). */
const STRINGS = {
  en: {
    "dir.sending": "sending…", "dir.close_detail": "Close the table's detail (Esc)"
  },
  it: {
    "dir.sending": "invio…", "dir.close_detail": "Chiudi il dettaglio del tavolo (Esc)"
  }
};

/** @param {{STRINGS: Object<string, Object<string, string>>}} i18n */
export function addStrings(i18n) {
  for (const lang of Object.keys(STRINGS)) Object.assign(i18n.STRINGS[lang] = i18n.STRINGS[lang] || {}, STRINGS[lang]);
}
export { STRINGS };
addStrings(/** @type {any} */ (window).I18N);
