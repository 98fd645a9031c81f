// @ts-check
/* bgclock dashboard: the strings of the dashboard's newer screens (English, Italian),
 * merged into the page's words (kit/i18n.js) when imported. */
import { withStrings } from "./kit/i18n.js";

const STRINGS = {
  en: {
    "alw.reloaded": "the database refused a write: the table reloaded from it at event {seq} and goes on (the devices sent their last presses again)",
    "dir.sending": "sending…", "det.sheet": "Score sheet and time per move (print on A4)", "dir.close_detail": "Close the table's detail (Esc)",
    "rul.result.single": "a single game", "rul.result.gammon": "a gammon", "rul.result.backgammon": "a backgammon",
    "rul.gin_keeps": "gin: {name} keeps the match, {score}",
    "rul.gin_loses": "gin: {name} scores {r} but loses the match, {score}",
    "rul.lost": "lost: {name} loses the match",
    "rul.invalid": "invalid: play on, {name}'s clock runs",
    "rul.accept": "accept: {name} wins {r}, {score}",
    "rul.accept_match": "accept: {name} wins {r} and the match, {score}",
    "set.title": "Set clock to", "set.go": "Set",
    "set.flags": "⚠ {name} would flag: the reserve becomes 0:00",
    "set.bad": "type the time as m:ss",
    "brd.show": "Show the board", "brd.enter": "Enter by clicks", "brd.close_editor": "Close the editor",
    "brd.on_roll": "on roll", "brd.opponent": "opponent", "brd.side.on_roll": "● {name} (on roll)",
    "brd.side.opponent": "○ {name}", "brd.remove": "remove", "brd.dice": "dice rolled:", "brd.die": "die",
    "brd.make": "Make the Position ID", "brd.clear": "Empty board", "brd.made": "Position ID:",
    "brd.both_dice": "choose both dice, or none before the roll",
    "brd.legend": "white: {me} (on roll, home bottom right) · black: {them}",
    "brd.help": "Click a point (or the bar) to add a checker of the chosen side; right-click or 'remove' takes one off. On the board: {me} {a}, {them} {b}; the rest are borne off.",
    "card.winner": "★ {name} wins", "card.low": "⚠ {name}: low time",
    "card.offline": "📵 device offline {t}", "card.keeper": "device keeps time",
    "card.reconciled": "↻ reconciled: {n} applied", "card.reconciled_refused": "↻ reconciled: {n} applied, {r} refused",
    "tbl.round": "Table {table} · {event} R{n}", "tbl.room": "Table {table} · {event} · {match}", "tbl.phase": "Table {table} · {couples} phase {n}",
    "tbl.event.main": "Main", "tbl.event.consolation": "Consolation", "tbl.event.swing": "Swing",
    "alw.table": "Table {n}", "alw.expiry": "{name}'s time expired: rule gin or lost",
    "alw.reject.concede": "{a} rejected {b}'s {r} concession", "alw.reject.claim": "{a} rejected {b}'s {r} claim",
    "alw.flag": "{name}'s time expired (flag)", "alw.director": "{name} called the director",
    "alw.dispute": "{name} called the director: dispute",
    "alw.break_over": "{name}'s break ran over its {limit} by {t}",
    "alw.fix_ruling": "Open the ruling", "alw.fix_break": "Charge {t}",
    "alw.fix_break_confirm": "charge the break's overrun to {name}'s clock: −{t}"
  },
  it: {
    "alw.reloaded": "il database ha rifiutato una scrittura: il tavolo si è ricaricato dal database all'evento {seq} e continua (i dispositivi hanno rimandato le ultime pressioni)",
    "dir.sending": "invio…", "det.sheet": "Foglio segnapunti e tempo per mossa (stampa A4)", "dir.close_detail": "Chiudi il dettaglio del tavolo (Esc)",
    "rul.result.single": "una partita semplice", "rul.result.gammon": "un gammon", "rul.result.backgammon": "un backgammon",
    "rul.gin_keeps": "gin: {name} tiene il match, {score}",
    "rul.gin_loses": "gin: {name} segna {r} ma perde il match, {score}",
    "rul.lost": "perso: {name} perde il match",
    "rul.invalid": "invalido: si gioca, corre l'orologio di {name}",
    "rul.accept": "accettato: {name} vince {r}, {score}",
    "rul.accept_match": "accettato: {name} vince {r} e il match, {score}",
    "set.title": "Imposta l'orologio a", "set.go": "Imposta",
    "set.flags": "⚠ {name} perderebbe per tempo: la riserva diventa 0:00",
    "set.bad": "scrivi il tempo come m:ss",
    "brd.show": "Mostra la tavola", "brd.enter": "Inserisci con i clic", "brd.close_editor": "Chiudi l'editor",
    "brd.on_roll": "di turno", "brd.opponent": "avversario", "brd.side.on_roll": "● {name} (di turno)",
    "brd.side.opponent": "○ {name}", "brd.remove": "togli", "brd.dice": "dadi tirati:", "brd.die": "dado",
    "brd.make": "Calcola il Position ID", "brd.clear": "Tavola vuota", "brd.made": "Position ID:",
    "brd.both_dice": "scegli entrambi i dadi, o nessuno prima del tiro",
    "brd.legend": "bianco: {me} (di turno, casa in basso a destra) · nero: {them}",
    "brd.help": "Clic su una punta (o sulla barra) per aggiungere una pedina del lato scelto; clic destro o 'togli' la toglie. Sulla tavola: {me} {a}, {them} {b}; le altre sono fuori.",
    "card.winner": "★ vince {name}", "card.low": "⚠ {name}: poco tempo",
    "card.offline": "📵 dispositivo offline da {t}", "card.keeper": "il dispositivo tiene il tempo",
    "card.reconciled": "↻ riallineato: {n} applicati", "card.reconciled_refused": "↻ riallineato: {n} applicati, {r} rifiutati",
    "tbl.round": "Tavolo {table} · {event} T{n}", "tbl.room": "Tavolo {table} · {event} · {match}", "tbl.phase": "Tavolo {table} · {couples} fase {n}",
    "tbl.event.main": "Main", "tbl.event.consolation": "Consolation", "tbl.event.swing": "Swing",
    "alw.table": "Tavolo {n}", "alw.expiry": "il tempo di {name} è scaduto: decidere gin o perso",
    "alw.reject.concede": "{a} ha rifiutato l'abbandono ({r}) di {b}", "alw.reject.claim": "{a} ha rifiutato la richiesta ({r}) di {b}",
    "alw.flag": "il tempo di {name} è scaduto", "alw.director": "{name} ha chiamato il direttore",
    "alw.dispute": "{name} ha chiamato il direttore: contestazione",
    "alw.break_over": "la pausa di {name} ha superato i {limit} di {t}",
    "alw.fix_ruling": "Apri la decisione", "alw.fix_break": "Addebita {t}",
    "alw.fix_break_confirm": "addebitare lo sforamento della pausa all'orologio di {name}: −{t}"
  }
};

export { STRINGS };
/** The page's words with the dashboard's strings. */
export const I18N = withStrings(STRINGS);
