// @ts-check
/* bgclock room display: its own words (roomx), English and Italian, merged
 * one way into the page's dictionary (kit/i18n.js) over the tournament
 * screen's (tourney/strings.js: the events' and rounds' names, the
 * standings, the flights) and the timekeeper's (a provisional flag). */
import { timeOfDay } from "../kit/format.js";
import { withStrings } from "../kit/i18n.js";
import { i18n as tourneyStrings } from "../tourney/strings.js";
import "../timekeeper-strings.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "roomx.names": "Players", "roomx.results": "Results", "roomx.late": "Late arrivals",
    "roomx.committee": "Ruling committee", "roomx.page": "{view} · page {n} of {of}",
    "roomx.waiting": "waiting", "roomx.out": "out", "roomx.champion": "winner",
    "roomx.bye": "bye", "roomx.vs": "v",
    "roomx.late_clock": "late at table {table}: the clock runs since {t}",
    "roomx.late_count": "late at table {table}", "roomx.points": "{points} pt · {a}–{b}",
    "roomx.next": "next point in {t}", "roomx.out_in": "disqualified in {t}",
    "roomx.from": "count from {t}", "roomx.dq": "disqualified", "roomx.arrived": "arrived",
    "roomx.upheld": "ruling upheld", "roomx.overturned": "ruling overturned",
    "roomx.pending": "to be heard", "roomx.panel": "panel",
    "roomx.ends": "ends ~{t}", "roomx.round_ends": "Round expected to end ~{t} · ⚑ table {table} holds it up"
  },
  it: {
    "roomx.names": "Giocatori", "roomx.results": "Risultati", "roomx.late": "Ritardi",
    "roomx.committee": "Comitato di gara", "roomx.page": "{view} · pagina {n} di {of}",
    "roomx.waiting": "in attesa", "roomx.out": "eliminato", "roomx.champion": "vincitore",
    "roomx.bye": "bye", "roomx.vs": "v",
    "roomx.late_clock": "in ritardo al tavolo {table}: l'orologio corre dalle {t}",
    "roomx.late_count": "in ritardo al tavolo {table}", "roomx.points": "{points} pt · {a}–{b}",
    "roomx.next": "prossimo punto tra {t}", "roomx.out_in": "squalifica tra {t}",
    "roomx.from": "conteggio dalle {t}", "roomx.dq": "squalificato", "roomx.arrived": "arrivato",
    "roomx.upheld": "decisione confermata", "roomx.overturned": "decisione annullata",
    "roomx.pending": "da discutere", "roomx.panel": "collegio",
    "roomx.ends": "fine ~{t}", "roomx.round_ends": "Fine del turno prevista ~{t} · ⚑ la trattiene il tavolo {table}"
  }
};

tourneyStrings();
const I18N = withStrings(STRINGS);

/** The page's I18N with these strings merged in.
 * @returns {import("../kit/i18n.js").I18n} */
export function i18n() {
  return I18N;
}

/**
 * A time of day in the page's language.
 * @param {number} ms
 * @returns {string}
 */
export function hm(ms) {
  return timeOfDay(ms, I18N.lang);
}

/**
 * A match's event and round, in words.
 * @param {{event: string, round: number}} m
 * @returns {string}
 */
export function eventRound(m) {
  return I18N.t("room." + m.event) + " · " + I18N.t("room.round", { n: m.round + 1 });
}

export { STRINGS };
