// @ts-check
/* bgclock public page and player page: their own words (pub), English and
 * Italian, merged one way into the page's dictionary (kit/i18n.js). */
import { withStrings } from "../kit/i18n.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "pub.next": "Next match", "pub.results": "Results", "pub.back": "The whole tournament",
    "pub.search": "Find a player", "pub.tables": "Tables now", "pub.table": "Table",
    "pub.players": "Players", "pub.score": "Score", "pub.clocks": "Clocks",
    "pub.no_tables": "No match is at a table now.", "pub.late": "Late arrivals",
    "pub.no_results": "No result yet.", "pub.standings": "Standings and prizes",
    "pub.draw": "Draw", "pub.no_draw": "The draw is not made yet.", "pub.players_all": "Players",
    "pub.by": "bgclock", "pub.updated": "updated at {t}", "pub.offline": "offline — reconnecting",
    "pub.gone": "This tournament's page is not public.", "pub.closed": "finished",
    "pub.live": "live", "pub.at_table": "Table {table}", "pub.against": "against {name}",
    "pub.tbd": "opponent to be decided", "pub.waiting": "waiting for a table",
    "pub.none_next": "No match to play now.", "pub.won": "won against {name}",
    "pub.lost": "lost to {name}", "pub.bye": "bye", "pub.beat": "{w} beat {l}",
    "pub.late_points": "{event}, {round}: {points} penalty points, score {a}–{b}",
    "pub.late_points.one": "{event}, {round}: {points} penalty point, score {a}–{b}",
    "pub.late_mine": "Late arrival", "pub.prizes": "Places and prizes",
    "pub.place": "{event}: place {label}", "pub.in_play": "in play", "pub.champion": "Champion",
    "pub.round": "Round {n}", "pub.final": "Final", "pub.found_none": "No player by that name.",
    "pub.over": "match over", "pub.provisional": "provisional", "pub.to": "to {n}",
    "pub.no_clock": "no clock", "pub.tba": "to be decided", "pub.player_of": "{name} · {event}",
    "pub.withdrawn": "withdrawn",
    "pub.ev.main": "Main", "pub.ev.consolation": "Progressive Consolation",
    "pub.ev.last_chance": "Last Chance", "pub.ev.swing": "Swing", "pub.ev.couples": "Couples"
  },
  it: {
    "pub.next": "Prossima partita", "pub.results": "Risultati", "pub.back": "Tutto il torneo",
    "pub.search": "Cerca un giocatore", "pub.tables": "Ai tavoli ora", "pub.table": "Tavolo",
    "pub.players": "Giocatori", "pub.score": "Punteggio", "pub.clocks": "Orologi",
    "pub.no_tables": "Nessuna partita è ai tavoli ora.", "pub.late": "Ritardi",
    "pub.no_results": "Ancora nessun risultato.", "pub.standings": "Classifica e premi",
    "pub.draw": "Tabellone", "pub.no_draw": "Il sorteggio non è ancora fatto.",
    "pub.players_all": "Giocatori", "pub.by": "bgclock", "pub.updated": "aggiornato alle {t}",
    "pub.offline": "non in linea — riconnessione", "pub.gone": "La pagina di questo torneo non è pubblica.",
    "pub.closed": "concluso", "pub.live": "in diretta", "pub.at_table": "Tavolo {table}",
    "pub.against": "contro {name}", "pub.tbd": "avversario da definire",
    "pub.waiting": "in attesa di un tavolo", "pub.none_next": "Nessuna partita da giocare ora.",
    "pub.won": "ha battuto {name}", "pub.lost": "ha perso con {name}", "pub.bye": "bye",
    "pub.beat": "{w} batte {l}",
    "pub.late_points": "{event}, {round}: {points} punti di penalità, punteggio {a}–{b}",
    "pub.late_points.one": "{event}, {round}: {points} punto di penalità, punteggio {a}–{b}",
    "pub.late_mine": "Ritardo", "pub.prizes": "Piazzamenti e premi",
    "pub.place": "{event}: posizione {label}", "pub.in_play": "in gioco", "pub.champion": "Campione",
    "pub.round": "Turno {n}", "pub.final": "Finale", "pub.found_none": "Nessun giocatore con questo nome.",
    "pub.over": "partita finita", "pub.provisional": "provvisorio", "pub.to": "a {n}",
    "pub.no_clock": "senza orologio", "pub.tba": "da definire", "pub.player_of": "{name} · {event}",
    "pub.withdrawn": "ritirato",
    "pub.ev.main": "Main", "pub.ev.consolation": "Consolazione progressiva",
    "pub.ev.last_chance": "Last Chance", "pub.ev.swing": "Swing", "pub.ev.couples": "Coppie"
  }
};

const I18N = withStrings(STRINGS);

/** The page's I18N with these strings merged in.
 * @returns {import("../kit/i18n.js").I18n} */
export function i18n() {
  return I18N;
}

/**
 * An event's and round's name: "Main, Round 2".
 * @param {string} event
 * @param {number} round 0-based
 * @returns {string}
 */
export function eventRound(event, round) {
  return I18N.t("pub.ev." + event) + ", " + I18N.t("pub.round", { n: round + 1 });
}
