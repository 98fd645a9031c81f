// @ts-check
/* bgclock: the strings of the tournament's end and the wall (standings, prize
 * list, pairings, player search, the room display's champion and welcome
 * views), English and Italian, merged into the page's I18N. */
import { withStrings } from "./kit/i18n.js";

const STRINGS = {
  en: {
    "st.title": "Standings and prizes",
    "st.print": "Standings (print)",
    "st.pairings": "Wall pairings (print)",
    "st.csv": "Standings CSV",
    "st.json": "Standings JSON",
    "st.results_csv": "Every player's results CSV",
    "st.results_json": "Every player's results JSON",
    "st.prizes": "Prize list",
    "st.prizes_help": "One prize per line, 1st place first (an amount or a prize; an empty line: no prize)",
    "st.save_prizes": "Save the prize list of {event}",
    "st.event.main": "Main",
    "st.event.consolation": "Progressive Consolation",
    "st.event.last_chance": "Last Chance",
    "st.event.swing": "Swing",
    "st.event.couples": "Couples",
    "st.in_play": "in play",
    "st.search": "Where do I play?",
    "st.search_help": "Type part of a name",
    "st.search_none": "No player plays now under that name.",
    "st.search_row": "{name}: table {table} · v {vs} · {event} · round {n}",
    "st.search_wait": "{name}: no table now",
    "st.champion": "Champion",
    "st.welcome": "Welcome",
    "st.registered": "{n} players registered",
    "st.late_slot": "late arrival",
    "st.on_time": "on time",
    "st.withdrawn": "withdrawn",
    "st.waiting_cons": "waiting for the consolation draw",
    "st.standings": "Standings"
  },
  it: {
    "st.title": "Classifica e premi",
    "st.print": "Classifica (stampa)",
    "st.pairings": "Abbinamenti da affiggere (stampa)",
    "st.csv": "Classifica CSV",
    "st.json": "Classifica JSON",
    "st.results_csv": "Risultati di ogni giocatore CSV",
    "st.results_json": "Risultati di ogni giocatore JSON",
    "st.prizes": "Montepremi",
    "st.prizes_help": "Un premio per riga, dal 1° posto (una cifra o un premio; riga vuota: nessun premio)",
    "st.save_prizes": "Salva i premi di {event}",
    "st.event.main": "Main",
    "st.event.consolation": "Consolazione progressiva",
    "st.event.last_chance": "Last Chance",
    "st.event.swing": "Swing",
    "st.event.couples": "Coppie",
    "st.in_play": "in gioco",
    "st.search": "Dove gioco?",
    "st.search_help": "Scrivi una parte del nome",
    "st.search_none": "Nessun giocatore con quel nome gioca ora.",
    "st.search_row": "{name}: tavolo {table} · contro {vs} · {event} · turno {n}",
    "st.search_wait": "{name}: nessun tavolo ora",
    "st.champion": "Campione",
    "st.welcome": "Benvenuti",
    "st.registered": "{n} giocatori iscritti",
    "st.late_slot": "ritardatario",
    "st.on_time": "a tempo",
    "st.withdrawn": "ritirato",
    "st.waiting_cons": "in attesa del tabellone di consolazione",
    "st.standings": "Classifica"
  }
};

/** The page's I18N with these strings merged in. */
export function i18n() {
  return withStrings(STRINGS);
}

/**
 * @typedef {{event: string, round: number, match?: number, table: (number|null),
 *   a: (string|null), b: (string|null), winner: (string|null)}} SeatedMatch
 * @typedef {{name: string, table: number, vs: string, event: string, round: number}} Seat
 */

/**
 * "Where do I play?": the undecided matches at a table whose players' names
 * hold ``query`` (any case), one row per player found, by name.
 * @param {SeatedMatch[]} matches
 * @param {string} query
 * @returns {Seat[]}
 */
export function findSeats(matches, query) {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [];
  /** @type {Seat[]} */
  const out = [];
  for (const m of matches) {
    if (m.winner || m.table == null || !m.a || !m.b) continue;
    for (const [me, vs] of [[m.a, m.b], [m.b, m.a]]) {
      if (me.toLocaleLowerCase().includes(q)) {
        out.push({ name: me, table: m.table, vs: vs, event: m.event, round: m.round });
      }
    }
  }
  return out.sort((x, y) => x.name.localeCompare(y.name));
}

/**
 * How a match was won, for the room's results: the score (the winner's
 * points first), "on time" for a flag (a clock result with the winner short
 * of the match's length), or why (disqualified, withdrawn).
 * @param {{a: (string|null), b: (string|null), winner: (string|null), length?: number}} m
 * @param {Object<string, any>} r the match's result: source, score
 * @param {function(string): string} t
 * @returns {string}
 */
export function resultText(m, r, t) {
  if (r.source === "disqualified") return t("roomx.dq");
  if (r.source === "withdrawn") return t("st.withdrawn");
  if (!Array.isArray(r.score)) return "";
  const mine = m.winner === m.b ? r.score.slice().reverse() : r.score.slice();
  if (r.source === "clock" && m.length && mine[0] < m.length) return t("st.on_time");
  return mine.join(" – ");
}

/**
 * The Main's players whose first played match (both players there) is
 * lost: the consolation's entrants, who are not "out" before it is drawn.
 * @param {{rounds: {a: (string|null), b: (string|null), winner: (string|null)}[][]}|null} main
 * @returns {Set<string>}
 */
export function firstMatchLosers(main) {
  /** @type {Set<string>} */
  const seen = new Set(), out = new Set();
  if (!main) return out;
  for (const round of main.rounds) {
    for (const m of round) {
      if (!m.a || !m.b) continue;
      for (const p of [m.a, m.b]) {
        if (seen.has(p)) continue;
        seen.add(p);
        if (m.winner && m.winner !== p) out.add(p);
      }
    }
  }
  return out;
}

export { STRINGS };
