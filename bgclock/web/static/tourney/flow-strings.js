/* bgclock: the tournament screen's evening flows (issue 32 §5), English and
 * Italian: the prize list saved whole, what draws the consolation, the late
 * arrivals seated at once, check-in, seeding by rating and groups by club,
 * the register's import preview.  Merged one way into the page's dictionary
 * (kit/i18n.js); the refusals are in strings.js (err.*). */
import { withStrings } from "../kit/i18n.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "fl.save_prizes": "Save the prize lists",
    "fl.prizes_saved": "Prize lists saved: {list}.",
    "fl.prizes_places": "{event} {n} prizes",
    "fl.prizes_places.one": "{event} 1 prize",
    "fl.prizes_none": "{event} no prizes",
    "fl.prizes_unchanged": "Nothing to save: the prize lists are as saved.",
    "fl.consolation_trigger": "The Progressive Consolation is drawn when late arrivals are closed and every player's first match is decided (after a bye, the second round's).",
    "fl.consolation_ready_byes": "Every first-round match is decided: close late arrivals; the Progressive Consolation is then drawn when the second-round matches of the players with a bye are decided.",
    "fl.consolation_byes": "Late arrivals are closed: the Progressive Consolation is drawn when the second-round matches of the players with a bye are decided.",
    "fl.consolation_ready": "Every first-round match is decided: close late arrivals to draw the Progressive Consolation.",
    "fl.cf_close_late": "Close late arrivals? The {n} empty late slots become byes and the Progressive Consolation can be drawn. This cannot be undone.",
    "fl.cf_close_late.one": "Close late arrivals? The empty late slot becomes a bye and the Progressive Consolation can be drawn. This cannot be undone.",
    "fl.cf_close_late_none": "Close late arrivals? No late slot is empty; the Progressive Consolation can be drawn. This cannot be undone.",
    "fl.arrived_seated": "{name} arrived: the match is at table {table}.",
    "fl.arrived_waiting": "{name} arrived: the match waits for the room's next free table.",
    "fl.arrived_slot": "{name} arrived: in the draw, seated when the first round starts.",
    "fl.arrived_not_seated": "{name} arrived, but the match is not seated: {why}",
    "fl.checkin_search": "Find a player",
    "fl.checkin_search_help": "part of a name or federation id",
    "fl.present_of": "Present: {n} of {of}",
    "fl.all_present": "All present ({n})",
    "fl.cf_all_present": "Check in the {n} players listed who are not in yet ({names})?",
    "fl.cf_all_present.one": "Check in {names}?",
    "fl.reg_file": "Spreadsheet (CSV: semicolons or commas, Italian or English headers)",
    "fl.reg_preview": "Preview",
    "fl.reg_previewed": "The import will add {a} and update {u}: nothing saved yet.",
    "fl.reg_row_add": "row {row}: {name} · {club} · {rating} (new)",
    "fl.reg_row_update": "row {row}: {name} · {club} · {rating} (updates #{entry})",
    "fl.seeds_count": "How many seeds",
    "fl.seeds_count_bad": "How many seeds: a whole number, 0 or more.",
    "fl.seeds_by_rating": "Seed by rating",
    "fl.seeds_done": "Seeded by rating: {list}.",
    "fl.seeds_fewer": "Seeded by rating: {list} (only {n} of the {asked} asked have a rating in the register and are checked in).",
    "fl.seeds_none": "No seeds: no player checked in has a rating in the register.",
    "fl.groups_by_club": "Keep apart players of one club",
    "fl.groups_done": "Kept apart by club: {list}.",
    "fl.groups_none": "No club has two players in the register: nobody kept apart.",
    "fl.clash_match": "{event} R{n} match {m}",
    "fl.event.main": "Main", "fl.event.consolation": "Progressive Consolation", "fl.event.last_chance": "Last Chance",
    "fl.event.losers": "Losers' bracket", "fl.event.final": "Final",
    "fl.source.hand": "entered by hand", "fl.source.clock": "from the clock",
    "fl.source.withdrawn": "a withdrawal", "fl.source.disqualified": "a disqualification"
  },
  it: {
    "fl.save_prizes": "Salva i premi",
    "fl.prizes_saved": "Premi salvati: {list}.",
    "fl.prizes_places": "{event} {n} premi",
    "fl.prizes_places.one": "{event} 1 premio",
    "fl.prizes_none": "{event} nessun premio",
    "fl.prizes_unchanged": "Niente da salvare: i premi sono già questi.",
    "fl.consolation_trigger": "La Consolazione progressiva si sorteggia quando chiudi i ritardatari ed è decisa la prima partita di ogni giocatore (dopo un turno di riposo, quella del secondo turno).",
    "fl.consolation_ready_byes": "Tutte le partite del primo turno sono decise: chiudi i ritardatari; la Consolazione progressiva si sorteggia poi quando sono decise le partite del secondo turno di chi ha avuto un turno di riposo.",
    "fl.consolation_byes": "I ritardatari sono chiusi: la Consolazione progressiva si sorteggia quando sono decise le partite del secondo turno di chi ha avuto un turno di riposo.",
    "fl.consolation_ready": "Tutte le partite del primo turno sono decise: chiudi i ritardatari per sorteggiare la Consolazione progressiva.",
    "fl.cf_close_late": "Chiudere i ritardatari? I {n} posti vuoti diventano turni di riposo e si può sorteggiare la Consolazione progressiva. Non si può annullare.",
    "fl.cf_close_late.one": "Chiudere i ritardatari? Il posto vuoto diventa un turno di riposo e si può sorteggiare la Consolazione progressiva. Non si può annullare.",
    "fl.cf_close_late_none": "Chiudere i ritardatari? Nessun posto per ritardatari è vuoto; si può sorteggiare la Consolazione progressiva. Non si può annullare.",
    "fl.arrived_seated": "{name} è arrivato: la partita è al tavolo {table}.",
    "fl.arrived_waiting": "{name} è arrivato: la partita aspetta il prossimo tavolo libero della sala.",
    "fl.arrived_slot": "{name} è arrivato: è nel tabellone, si siede quando parte il primo turno.",
    "fl.arrived_not_seated": "{name} è arrivato, ma la partita non è seduta: {why}",
    "fl.checkin_search": "Cerca un giocatore",
    "fl.checkin_search_help": "parte del nome o tessera",
    "fl.present_of": "Presenti: {n} su {of}",
    "fl.all_present": "Tutti presenti ({n})",
    "fl.cf_all_present": "Segnare presenti i {n} giocatori elencati non ancora presenti ({names})?",
    "fl.cf_all_present.one": "Segnare presente {names}?",
    "fl.reg_file": "Foglio di calcolo (CSV: punto e virgola o virgola, intestazioni in italiano o inglese)",
    "fl.reg_preview": "Anteprima",
    "fl.reg_previewed": "L'importazione aggiungerà {a} e aggiornerà {u}: non è ancora salvato nulla.",
    "fl.reg_row_add": "riga {row}: {name} · {club} · {rating} (nuovo)",
    "fl.reg_row_update": "riga {row}: {name} · {club} · {rating} (aggiorna #{entry})",
    "fl.seeds_count": "Quante teste di serie",
    "fl.seeds_count_bad": "Quante teste di serie: un numero intero, 0 o più.",
    "fl.seeds_by_rating": "Teste di serie per rating",
    "fl.seeds_done": "Teste di serie per rating: {list}.",
    "fl.seeds_fewer": "Teste di serie per rating: {list} (solo {n} dei {asked} chiesti hanno un rating nell'anagrafica e sono presenti).",
    "fl.seeds_none": "Nessuna testa di serie: nessun giocatore presente ha un rating nell'anagrafica.",
    "fl.groups_by_club": "Separa i giocatori dello stesso circolo",
    "fl.groups_done": "Separati per circolo: {list}.",
    "fl.groups_none": "Nessun circolo ha due giocatori nell'anagrafica: nessuno separato.",
    "fl.clash_match": "{event} T{n} incontro {m}",
    "fl.event.main": "Main", "fl.event.consolation": "Consolazione progressiva", "fl.event.last_chance": "Last Chance",
    "fl.event.losers": "Tabellone dei perdenti", "fl.event.final": "Finale",
    "fl.source.hand": "inserito a mano", "fl.source.clock": "dall'orologio",
    "fl.source.withdrawn": "un ritiro", "fl.source.disqualified": "una squalifica"
  }
};

/** The page's words with these strings merged in: merged once, at load. */
const WORDS = withStrings(STRINGS);

/** @returns {import("../kit/i18n.js").I18n} */
export function flowI18n() {
  return WORDS;
}

export { STRINGS };
