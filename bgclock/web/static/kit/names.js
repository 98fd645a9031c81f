// @ts-check
/* bgclock: lists by name sort by surname (issue 32 §5), as the server's
 * wall sheets do (bgclock/tournament/_names.py, surname_key): the register
 * keeps a name whole ("Nome Cognome"), so the surname is the last word with
 * the particles before it ("De Luca", "van der Berg"); compared without case
 * or accents ("Nicolò Rossi" under R, beside "Nicolo Rossi"), then by the
 * whole name, then as written.  No DOM. */

/** Words that belong to the surname they precede. */
const PARTICLES = new Set(["d'", "da", "dal", "dalla", "dalle", "de", "de'", "dei", "degli", "del",
  "della", "delle", "dello", "der", "des", "di", "du", "la", "le", "lo", "van", "von", "ten", "ter"]);

/** The surname a list files `name` under. @param {string} name @returns {string} */
export function surname(name) {
  const words = name.split(/\s+/).filter((w) => w);
  let k = words.length - 1;
  while (k > 1 && PARTICLES.has(words[k - 1].toLowerCase())) k--;
  return words.slice(Math.max(k, 0)).join(" ");
}

/** First-level collation: accents and apostrophes dropped, case-folded.
 * @param {string} s @returns {string} */
function collation(s) {
  return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/['\u2019]/g, "")
    .split(/\s+/).filter((w) => w).join(" ");
}

/** @param {string} x @param {string} y @returns {number} */
function cmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }

/** Two names in the order of a list by surname. @param {string} a @param {string} b @returns {number} */
export function bySurname(a, b) {
  return cmp(collation(surname(a)), collation(surname(b))) || cmp(collation(a), collation(b)) || cmp(a, b);
}
