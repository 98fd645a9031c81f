// @ts-check
/* bgclock: the table page's own strings (English, Italian), merged one way
 * into the page's dictionary (kit/i18n.js):
 *
 * - the page's title;
 * - what became of the commands that waited through an outage, said once per
 *   outcome with its count (table/words.js): the participle agrees with what
 *   it tells of in Italian ("1 pressione: rifiutata", "4 pressioni:
 *   rifiutate", "2 arresti: rifiutati").  `kind.K.gender` is the gender of
 *   kind K's noun ("f" or "m"; "" in a language whose words do not agree,
 *   which then uses the dictionary's own `conn.*` key); `conn.X.f` and
 *   `conn.X.m` (and their `.one`) are outcome X's words for each;
 *   `conn.retimed_n` the re-timed ones counted (their instants one way). */
import { I18N, withStrings } from "../kit/i18n.js";

/** @type {Object<string, Object<string, string>>} */
export const STRINGS = {
  en: {
    "title.table": "bgclock — table {id}", "title.page": "bgclock — table",
    "conn.host_refused": "the server does not answer at “{host}”: open the table's link as the director printed it, or the director starts the server with --allow-host {host}",
    "kind.hit.gender": "", "kind.double.gender": "", "kind.take.gender": "", "kind.pass.gender": "",
    "kind.stop.gender": "", "kind.resume.gender": "", "kind.opening_roll.gender": "",
    "kind.summon.gender": "", "kind.cmd.gender": "",
    "conn.synced_list.one": "synced: {list} applied at its instant",
    "conn.retimed_n": "{what} re-timed by {by}",
    "conn.retimed_range": "{what} re-timed by {from} to {to}",
    "conn.retry": "the server is busy: the presses are kept here and sent again in order",
    "hand.decided": "result entered by the director: {name} won",
    "hand.score": "score {a}–{b}",
    "hand.no_presses": "this match is closed: the clock takes no more presses",
    "ref.decided_by_hand": "the director entered this match's result ({name} won): the clock takes no more presses"
  },
  it: {
    "title.table": "bgclock — tavolo {id}", "title.page": "bgclock — tavolo",
    "conn.host_refused": "il server non risponde a «{host}»: apri il link del tavolo come lo ha stampato il direttore, o il direttore avvia il server con --allow-host {host}",
    "kind.hit.gender": "f", "kind.double.gender": "m", "kind.take.gender": "m", "kind.pass.gender": "m",
    "kind.stop.gender": "m", "kind.resume.gender": "f", "kind.opening_roll.gender": "m",
    "kind.summon.gender": "f", "kind.cmd.gender": "m",
    "conn.synced_list.one": "sincronizzato, applicato al suo istante: {list}",
    "conn.synced_list.m": "sincronizzato, applicati al loro istante: {list}",
    "conn.synced_list.m.one": "sincronizzato, applicato al suo istante: {list}",
    "conn.synced_list.f": "sincronizzato, applicate al loro istante: {list}",
    "conn.synced_list.f.one": "sincronizzato, applicata al suo istante: {list}",
    "conn.retimed_n.one": "{what}: istante spostato di {by}",
    "conn.retimed_n": "{what}: istanti spostati di {by}",
    "conn.retimed_range": "{what}: istanti spostati da {from} a {to}",
    "conn.refused.m": "{what}: rifiutati ({why})", "conn.refused.m.one": "{what}: rifiutato ({why})",
    "conn.refused.f": "{what}: rifiutate ({why})", "conn.refused.f.one": "{what}: rifiutata ({why})",
    "conn.ignored.m": "{what}: non più necessari", "conn.ignored.m.one": "{what}: non più necessario",
    "conn.ignored.f": "{what}: non più necessarie", "conn.ignored.f.one": "{what}: non più necessaria",
    "conn.retry": "il server è occupato: le pressioni restano qui e vengono rimandate in ordine",
    "hand.decided": "risultato inserito dal direttore: ha vinto {name}",
    "hand.score": "punteggio {a}–{b}",
    "hand.no_presses": "questo match è chiuso: l'orologio non accetta altre pressioni",
    "ref.decided_by_hand": "il direttore ha inserito il risultato di questo match (ha vinto {name}): l'orologio non accetta altre pressioni"
  }
};

withStrings(STRINGS);  // merged into the page's dictionary as this module loads

/** The page's title in its language: the table's number when known.
 * @param {number} tableId @returns {string} */
export function pageTitle(tableId) {
  return tableId > 0 ? I18N.t("title.table", { id: tableId }) : I18N.t("title.page");
}
