// @ts-check
/* bgclock: the strings of flights (several events sharing one room's tables,
 * issue 23 §1) on the dashboard and the room display, English and Italian,
 * merged into I18N's dictionary (as tourney-strings.js does). */
import { withStrings } from "./kit/i18n.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "fl.title": "Room and events (flights)",
    "fl.help": "Events that name the same room share its table numbers: a round start takes only the tables no other event holds; when tables are short, the event with the lower precedence number is seated first (the rule book: the Championship and the Intermediate take precedence), then earlier rounds; the rest wait for a table.",
    "fl.room": "Room",
    "fl.precedence": "Precedence (1 first)",
    "fl.tables": "Tables in the room (0: no limit)",
    "fl.save": "Save the room",
    "fl.leave": "Leave the room",
    "fl.none": "This event shares no room.",
    "fl.event": "Event",
    "fl.at_tables": "At tables",
    "fl.waiting": "Waiting",
    "fl.this": "(this event)",
    "fl.waiting_n": "{n} matches wait for a table: they are seated as tables free.",
    "fl.waits": "waiting for a table",
    "fl.wall": "Room pairings (print)",
    "fl.csv": "Room tables (CSV)",
    "fl.standings_csv": "Every event's standings (CSV)",
    "fl.room_title": "{room} · every event",
    "fl.room_tables": "Every event's tables",
    "fl.room_waiting": "Waiting for a table",
    "fl.tables_of": "tables {list}",
    "fl.round": "Round {n}",
    "fl.round_col": "Round",
    "hist.flight": "The event's room set",
    "err.flight_busy": "This event has matches at tables or waiting: its room can change once they are over.",
    "err.table_taken": "Table {table} is taken by {event}.",
    "err.no_room": "This event shares no room with other events."
  },
  it: {
    "fl.title": "Sala ed eventi (flight)",
    "fl.help": "Gli eventi che indicano la stessa sala ne condividono i numeri di tavolo: l'avvio di un turno prende solo i tavoli che nessun altro evento occupa; se i tavoli non bastano, siede prima l'evento con il numero di precedenza più basso (il regolamento: gli incontri del Campionato e dell'Intermedio hanno la precedenza), poi i turni precedenti; gli altri attendono un tavolo.",
    "fl.room": "Sala",
    "fl.precedence": "Precedenza (1 prima)",
    "fl.tables": "Tavoli della sala (0: nessun limite)",
    "fl.save": "Salva la sala",
    "fl.leave": "Esci dalla sala",
    "fl.none": "Questo evento non condivide la sala.",
    "fl.event": "Evento",
    "fl.at_tables": "Ai tavoli",
    "fl.waiting": "In attesa",
    "fl.this": "(questo evento)",
    "fl.waiting_n": "{n} incontri attendono un tavolo: siederanno appena i tavoli si liberano.",
    "fl.waits": "in attesa di un tavolo",
    "fl.wall": "Abbinamenti della sala (stampa)",
    "fl.csv": "Tavoli della sala (CSV)",
    "fl.standings_csv": "Classifiche di tutti gli eventi (CSV)",
    "fl.room_title": "{room} · tutti gli eventi",
    "fl.room_tables": "I tavoli di tutti gli eventi",
    "fl.room_waiting": "In attesa di un tavolo",
    "fl.tables_of": "tavoli {list}",
    "fl.round": "Turno {n}",
    "fl.round_col": "Turno",
    "hist.flight": "Sala dell'evento impostata",
    "err.flight_busy": "Questo evento ha incontri ai tavoli o in attesa: la sala potrà cambiare quando saranno finiti.",
    "err.table_taken": "Il tavolo {table} è occupato da {event}.",
    "err.no_room": "Questo evento non condivide la sala con altri eventi."
  }
};

/** @typedef {import("./kit/i18n.js").I18n} I18n */

/** The page's I18N with these strings merged in.
 * @returns {I18n} */
export function i18n() {
  return withStrings(STRINGS);
}
export { STRINGS };

/**
 * @typedef {{table: (number|null), event: string, round: number, match: number,
 *   a: (string|null), b: (string|null)}} FlightMatch
 * @typedef {{name: string, precedence: number, this: boolean, tournament?: number,
 *   matches: FlightMatch[], waiting: FlightMatch[]}} FlightEvent
 * @typedef {{room: string, tables: number, events: FlightEvent[]}} Flight
 */
