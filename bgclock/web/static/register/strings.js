// @ts-check
/* bgclock: the strings of the players' register screen (English, Italian),
 * merged into I18N's dictionary (as tourney/strings.js does). */
import { withStrings } from "../kit/i18n.js";
import { refusalText as tourneyRefusal } from "../tourney/strings.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "reg.open": "Register",
    "reg.title": "Players' register",
    "reg.search": "Search (name or federation id)",
    "reg.find": "Search",
    "reg.search_in": "Find in the players' register",
    "reg.order": "Order",
    "reg.order.name": "by name",
    "reg.order.rating": "by rating",
    "reg.found": "{n} found",
    "reg.prev": "◀ Previous",
    "reg.next": "Next ▶",
    "reg.name": "Name",
    "reg.fed": "Federation id",
    "reg.club": "Club",
    "reg.rating": "Rating",
    "reg.experience": "Experience",
    "reg.history": "History",
    "reg.edit": "Edit",
    "reg.add_title": "Add a player",
    "reg.edit_title": "Edit {name}",
    "reg.save": "Save",
    "reg.cancel": "Cancel",
    "reg.delete_entry": "Delete the entry",
    "reg.deleted": "{name}'s entry is deleted.",
    "reg.entered_elsewhere": "{name} is already entered in {event}, in the same room. Enter them in this event too?",
    "reg.enter_both": "Enter in both",
    "reg.entering": "Entering…",
    "reg.asked": "Already entered in another event of the room: confirm or cancel.",
    "reg.err.already_entered": "{name} is already entered in {event}, in the same room.",
    "reg.err.already_drawn_delete": "The draw is made: {player} can only withdraw now.",
    "reg.rating_hint": "Rating (e.g. 1500; only before the first rated match)",
    "reg.import_title": "Import and export",
    "reg.csv": "CSV: name,federation_id,club,rating,experience (a header first)",
    "reg.import": "Import",
    "reg.export": "Export the register (CSV)",
    "reg.list_title": "Rating list",
    "reg.print": "Printable rating list (A4)",
    "reg.list_csv": "Rating list (CSV)",
    "reg.history_of": "History of {name}",
    "reg.no_history": "No rated match yet.",
    "reg.h.tournament": "Tournament",
    "reg.h.opponent": "Opponent",
    "reg.h.length": "Points",
    "reg.h.result": "Result",
    "reg.h.before": "Before",
    "reg.h.after": "After",
    "reg.won": "won",
    "reg.lost": "lost",
    "reg.tournament": "Tournament",
    "reg.enter": "Register in the tournament",
    "reg.entered": "player {n}",
    "reg.close": "Close the tournament and rate it",
    "reg.close_confirm": "Close “{name}”? Its tables close and its matches are rated (once).",
    "reg.closing": "Closing…",
    "reg.confirm": "Close and rate",
    "reg.closed": "Closed: {n} matches rated.",
    "reg.closed_before": "Already rated: {n} matches.",
    "reg.done": "Done.",
    "reg.imported": "Imported: {a} added, {u} updated.",
    "reg.bad_rating": "Rating: write a rating from -10000 to 10000, such as 1500 or 1522.36.",
    /* the register's refusals by their stable codes (bgclock/server/routes/register.py);
     * "reg.err.CODE.FIELD" first when the refusal names its field */
    "reg.field.name": "name",
    "reg.field.federation_id": "federation id",
    "reg.field.club": "club",
    "reg.field.rating": "rating",
    "reg.field.experience": "experience",
    "reg.field.id": "id",
    "reg.err.blank": "The name must not be blank.",
    "reg.err.taken": "This federation id was just saved in the register by another request: search again.",
    "reg.err.taken.federation_id": "Federation id {federation_id} is already in the register ({other}, #{id}).",
    "reg.err.taken.name": "{name} is already in the register as {other} (#{id}): give a federation id to tell two people apart.",
    "reg.err.full": "The register holds at most {max} players ({total} now).",
    "reg.err.rated": "{name} has rated matches: the {field} follows from them and cannot be changed.",
    "reg.err.not_rated": "Closed, but not rated (the database refused): close it again to rate it.",
    "reg.err.csv_empty": "The CSV has no rows.",
    "reg.err.csv_unknown_column": "Row {row}: unknown column “{column}” (the columns: {columns}).",
    "reg.err.csv_no_name_column": "Row {row}: the header must name a name column.",
    "reg.err.csv_column_twice": "Row {row}: the column “{column}” is named twice.",
    "reg.err.csv_too_many_rows": "At most {max} rows at once.",
    "reg.err.csv_too_many_cells": "Row {row}: more cells than columns.",
    "reg.err.csv_blank": "Row {row}: the name must not be empty.",
    "reg.err.csv_too_long": "Row {row}: {field}: at most {max} characters.",
    "reg.err.csv_bad_text": "Row {row}: {field}: control characters are not allowed.",
    "reg.err.csv_rating": "Row {row}: rating: write a rating from {min} to {max}, such as 1500 or 1522.36.",
    "reg.err.csv_experience": "Row {row}: experience: write a whole number from 0 to {max}.",
    "reg.err.csv_same_person": "Row {row}: {field}: the same person as row {other_row}.",
    "reg.err.csv_bad_id": "Row {row}: id: write a register entry's number.",
    "reg.err.csv_id_mismatch": "Row {row}: id {id} is not this player's entry (#{entry}).",
    "reg.err.csv_no_entry": "Row {row}: there is no register entry {id}.",
    "reg.err.csv_id_federation": "Row {row}: entry {id} has federation id {federation_id}.",
    "reg.err.csv_same_entry": "Row {row}: the same register entry (#{entry}) as row {other_row}."
  },
  it: {
    "reg.open": "Registro",
    "reg.title": "Registro dei giocatori",
    "reg.search": "Cerca (nome o tessera)",
    "reg.find": "Cerca",
    "reg.search_in": "Cerca nel registro dei giocatori",
    "reg.order": "Ordine",
    "reg.order.name": "per nome",
    "reg.order.rating": "per rating",
    "reg.found": "{n} trovati",
    "reg.prev": "◀ Precedenti",
    "reg.next": "Successivi ▶",
    "reg.name": "Nome",
    "reg.fed": "Tessera",
    "reg.club": "Circolo",
    "reg.rating": "Rating",
    "reg.experience": "Esperienza",
    "reg.history": "Storico",
    "reg.edit": "Modifica",
    "reg.add_title": "Aggiungi un giocatore",
    "reg.edit_title": "Modifica {name}",
    "reg.save": "Salva",
    "reg.cancel": "Annulla",
    "reg.delete_entry": "Elimina l'iscrizione",
    "reg.deleted": "L'iscrizione di {name} è eliminata.",
    "reg.entered_elsewhere": "{name} è già iscritto a {event}, nella stessa sala. Iscriverlo anche a questo torneo?",
    "reg.enter_both": "Iscrivi a entrambi",
    "reg.entering": "Iscrizione…",
    "reg.asked": "Già iscritto a un altro torneo della sala: conferma o annulla.",
    "reg.err.already_entered": "{name} è già iscritto a {event}, nella stessa sala.",
    "reg.err.already_drawn_delete": "Il tabellone è fatto: {player} ora può solo ritirarsi.",
    "reg.rating_hint": "Rating (es. 1500; solo prima della prima partita valutata)",
    "reg.import_title": "Importa ed esporta",
    "reg.csv": "CSV: name,federation_id,club,rating,experience (prima riga d'intestazione)",
    "reg.import": "Importa",
    "reg.export": "Esporta il registro (CSV)",
    "reg.list_title": "Classifica rating",
    "reg.print": "Classifica rating da stampare (A4)",
    "reg.list_csv": "Classifica rating (CSV)",
    "reg.history_of": "Storico di {name}",
    "reg.no_history": "Nessuna partita valutata.",
    "reg.h.tournament": "Torneo",
    "reg.h.opponent": "Avversario",
    "reg.h.length": "Punti",
    "reg.h.result": "Esito",
    "reg.h.before": "Prima",
    "reg.h.after": "Dopo",
    "reg.won": "vinta",
    "reg.lost": "persa",
    "reg.tournament": "Torneo",
    "reg.enter": "Iscrivi al torneo",
    "reg.entered": "giocatore {n}",
    "reg.close": "Chiudi il torneo e calcola i rating",
    "reg.close_confirm": "Chiudere «{name}»? I tavoli si chiudono e le partite sono valutate (una volta).",
    "reg.closing": "Chiusura…",
    "reg.confirm": "Chiudi e valuta",
    "reg.closed": "Chiuso: {n} partite valutate.",
    "reg.closed_before": "Già valutato: {n} partite.",
    "reg.done": "Fatto.",
    "reg.imported": "Importati: {a} aggiunti, {u} aggiornati.",
    "reg.bad_rating": "Rating: scrivi un rating da -10000 a 10000, come 1500 o 1522,36.",
    "reg.field.name": "nome",
    "reg.field.federation_id": "tessera",
    "reg.field.club": "circolo",
    "reg.field.rating": "rating",
    "reg.field.experience": "esperienza",
    "reg.field.id": "id",
    "reg.err.blank": "Il nome non può essere vuoto.",
    "reg.err.taken": "Questa tessera è appena stata salvata nel registro da un'altra richiesta: cerca di nuovo.",
    "reg.err.taken.federation_id": "La tessera {federation_id} è già nel registro ({other}, n. {id}).",
    "reg.err.taken.name": "{name} è già nel registro come {other} (n. {id}): indica una tessera per distinguere due persone.",
    "reg.err.full": "Il registro contiene al massimo {max} giocatori (ora {total}).",
    "reg.err.rated": "{name} ha partite valutate: il dato «{field}» deriva da quelle e non si può cambiare.",
    "reg.err.not_rated": "Chiuso, ma non valutato (il database ha rifiutato): chiudilo di nuovo per valutarlo.",
    "reg.err.csv_empty": "Il CSV non ha righe.",
    "reg.err.csv_unknown_column": "Riga {row}: colonna sconosciuta «{column}» (le colonne: {columns}).",
    "reg.err.csv_no_name_column": "Riga {row}: l'intestazione deve avere la colonna name.",
    "reg.err.csv_column_twice": "Riga {row}: la colonna «{column}» compare due volte.",
    "reg.err.csv_too_many_rows": "Al massimo {max} righe alla volta.",
    "reg.err.csv_too_many_cells": "Riga {row}: più celle che colonne.",
    "reg.err.csv_blank": "Riga {row}: il nome non può essere vuoto.",
    "reg.err.csv_too_long": "Riga {row}: {field}: al massimo {max} caratteri.",
    "reg.err.csv_bad_text": "Riga {row}: {field}: i caratteri di controllo non sono ammessi.",
    "reg.err.csv_rating": "Riga {row}: rating: scrivi un rating da {min} a {max}, come 1500 o 1522,36.",
    "reg.err.csv_experience": "Riga {row}: esperienza: scrivi un numero intero da 0 a {max}.",
    "reg.err.csv_same_person": "Riga {row}: {field}: la stessa persona della riga {other_row}.",
    "reg.err.csv_bad_id": "Riga {row}: id: scrivi il numero di una voce del registro.",
    "reg.err.csv_id_mismatch": "Riga {row}: l'id {id} non è la voce di questo giocatore (n. {entry}).",
    "reg.err.csv_no_entry": "Riga {row}: non c'è la voce {id} nel registro.",
    "reg.err.csv_id_federation": "Riga {row}: la voce {id} ha la tessera {federation_id}.",
    "reg.err.csv_same_entry": "Riga {row}: la stessa voce del registro (n. {entry}) della riga {other_row}."
  }
};

/** The page's I18N with the register's strings. */
export function i18n() { return withStrings(STRINGS); }

const WORDS = i18n();

/**
 * A refusal of the register's requests in the page's language: by its
 * stable code (`reg.err.CODE.FIELD` when it names its field, else
 * `reg.err.CODE`) and its params, the field's name and the ratings' figures
 * said in the page's language too; a line is used only when the refusal
 * gives every name it holds.  Any other refusal (the tournament's, when a
 * player is entered in it or it is closed) through the tournament screen's
 * catalogue, which says the server's words for a code it does not know.
 * @param {Error & {code?: string, params?: Object<string, (string|number)>}} err
 * @returns {string}
 */
export function refusalText(err) {
  const lines = WORDS.STRINGS[WORDS.lang] || {};
  const params = Object.assign({}, err.params || {});
  const keys = typeof params.field === "string" ? ["reg.err." + err.code + "." + params.field, "reg.err." + err.code]
    : ["reg.err." + err.code];
  for (const key of err.code ? keys : []) {
    const line = lines[key];
    if (line === undefined) continue;
    const wanted = (line.match(/\{\w+\}/g) || []).map((x) => x.slice(1, -1));
    if (!wanted.every((k) => params[k] !== undefined)) continue;
    if (typeof params.field === "string" && lines["reg.field." + params.field] !== undefined) {
      params.field = WORDS.t("reg.field." + params.field);
    }
    for (const k of ["min", "max"]) {
      // a rating's figure ("10000.00") with the page's decimal mark
      if (typeof params[k] === "string" && WORDS.lang === "it") params[k] = String(params[k]).replace(".", ",");
    }
    return WORDS.t(key, params);
  }
  return tourneyRefusal(err);
}

/**
 * A rating as the director types it ("1522,36" or "1522.36", as the
 * server reads one), in hundredths; null when it is not one.
 * @param {string} text
 * @returns {number|null}
 */
export function parseRating(text) {
  const found = /^(-?)(\d{1,5})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!found) return null;
  const value = Number(found[2]) * 100 + Number((found[3] || "0").padEnd(2, "0"));
  const signed = found[1] ? -value : value;
  return Math.abs(signed) <= 1000000 ? signed : null;
}
