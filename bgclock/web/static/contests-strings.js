/* bgclock: the strings of Swing and couples (the dashboard's contests screen
 * and the room display), English and Italian, merged into I18N's dictionary
 * (as tourney-strings.js does). */

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "con.open": "Swing & couples",
    "con.title": "Swing and couples",
    "con.pick": "Tournament",
    "con.none": "Create a tournament and register its players first.",
    "con.done": "Done.",
    "sw.title": "Swing",
    "sw.create": "Create the Swing",
    "sw.start_vp": "Starting VP",
    "sw.cpp": "CPP schedule (e.g. 100,200)",
    "sw.rules": "Rule book",
    "sw.clock": "Clock tables",
    "sw.reserve": "Fixed reserve per game (seconds, optional)",
    "sw.players": "Players (ids, empty: every registered player)",
    "sw.pair": "Pair round {n}",
    "sw.round": "Round {n}",
    "sw.cpp_now": "CPP now: {c}",
    "sw.cpp_next": "next: {c}",
    "sw.vp": "VP",
    "sw.player": "Player",
    "sw.status": "",
    "sw.out": "out",
    "sw.all_in": "all-in",
    "sw.sits_out": "sits out",
    "sw.all_in_round": "All-in this round: {names}",
    "sw.nobody_all_in": "Nobody is all-in this round.",
    "sw.winner": "{name} holds every VP",
    "sw.games": "Games",
    "sw.stake": "stake {s}",
    "sw.won": "{name} won",
    "sw.result": "Result",
    "sw.cube": "Cube",
    "sw.single": "single", "sw.gammon": "gammon", "sw.backgammon": "backgammon",
    "sw.chart": "VP across rounds",
    "sw.table": "Table {n}",
    "sw.open_table": "open",
    "cp.title": "Couples",
    "cp.create": "Create the couples event",
    "cp.couples": "Couples, one per line: name,player 1 id,player 2 id",
    "cp.format": "Format",
    "cp.knockout": "knockout", "cp.round_robin": "round robin",
    "cp.length": "Match length",
    "cp.encounter": "Encounter {n}: {a} – {b}",
    "cp.phase": "Phase {n}",
    "cp.start_phase": "Start the next phase",
    "cp.more": "Play the remaining matches anyway",
    "cp.decided": "{name} wins the encounter ({w})",
    "cp.standings": "Couples standings",
    "cp.couple": "Couple",
    "cp.encounters": "Encounters",
    "cp.matches": "Matches",
    "cp.points": "Points",
    "cp.champion": "Champions: {name}",
    "cp.consultation": "consultation"
  },
  it: {
    "con.open": "Swing e coppie",
    "con.title": "Swing e coppie",
    "con.pick": "Torneo",
    "con.none": "Crea prima un torneo e iscrivi i giocatori.",
    "con.done": "Fatto.",
    "sw.title": "Swing",
    "sw.create": "Crea lo Swing",
    "sw.start_vp": "VP iniziali",
    "sw.cpp": "CPP per turno (es. 100,200)",
    "sw.rules": "Regolamento",
    "sw.clock": "Tavoli con orologio",
    "sw.reserve": "Riserva fissa per partita (secondi, facoltativa)",
    "sw.players": "Giocatori (numeri, vuoto: tutti gli iscritti)",
    "sw.pair": "Abbina il turno {n}",
    "sw.round": "Turno {n}",
    "sw.cpp_now": "CPP ora: {c}",
    "sw.cpp_next": "poi: {c}",
    "sw.vp": "VP",
    "sw.player": "Giocatore",
    "sw.status": "",
    "sw.out": "eliminato",
    "sw.all_in": "all-in",
    "sw.sits_out": "riposa",
    "sw.all_in_round": "All-in in questo turno: {names}",
    "sw.nobody_all_in": "Nessuno è all-in in questo turno.",
    "sw.winner": "{name} ha tutti i VP",
    "sw.games": "Partite",
    "sw.stake": "posta {s}",
    "sw.won": "ha vinto {name}",
    "sw.result": "Risultato",
    "sw.cube": "Cubo",
    "sw.single": "semplice", "sw.gammon": "gammon", "sw.backgammon": "backgammon",
    "sw.chart": "VP turno per turno",
    "sw.table": "Tavolo {n}",
    "sw.open_table": "apri",
    "cp.title": "Coppie",
    "cp.create": "Crea la gara a coppie",
    "cp.couples": "Coppie, una per riga: nome,numero giocatore 1,numero giocatore 2",
    "cp.format": "Formula",
    "cp.knockout": "eliminazione diretta", "cp.round_robin": "girone all'italiana",
    "cp.length": "Punti per incontro",
    "cp.encounter": "Sfida {n}: {a} – {b}",
    "cp.phase": "Fase {n}",
    "cp.start_phase": "Avvia la fase successiva",
    "cp.more": "Gioca comunque gli incontri rimasti",
    "cp.decided": "{name} vince la sfida ({w})",
    "cp.standings": "Classifica a coppie",
    "cp.couple": "Coppia",
    "cp.encounters": "Sfide",
    "cp.matches": "Incontri",
    "cp.points": "Punti",
    "cp.champion": "Campioni: {name}",
    "cp.consultation": "consultazione"
  }
};

/**
 * @typedef {{lang: string, STRINGS: Object<string, Object<string, string>>,
 *   t: function(string, Object<string, (string|number)>=): string,
 *   setLang: function(string): void, apply: function(Element): void}} I18n
 */

/** The page's I18N (i18n.js, a classic script) with these strings merged in.
 * @returns {I18n} */
export function i18n() {
  const found = /** @type {{I18N: I18n}} */ (/** @type {unknown} */ (globalThis)).I18N;
  for (const lang of Object.keys(STRINGS)) {
    found.STRINGS[lang] = Object.assign(found.STRINGS[lang] || {}, STRINGS[lang]);
  }
  return found;
}
export { STRINGS };
