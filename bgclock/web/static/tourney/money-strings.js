/* bgclock: the tournament screen's money and points (issue 36), English and
 * Italian: the money's settings, the ledger at the desk, the warning before
 * the draw and the history's lines.  Merged one way into the page's
 * dictionary (kit/i18n.js); the refusals are in strings.js (err.*). */
import { withStrings } from "../kit/i18n.js";

/** @type {Object<string, Object<string, string>>} */
const STRINGS = {
  en: {
    "mon.title": "Entries and payments",
    "mon.settings": "Money",
    "mon.currency": "Currency (EUR, USD, CHF)",
    "mon.fee": "Entry fee",
    "mon.return": "Return (%)",
    "mon.added": "Money added",
    "mon.shares": "Shares per place (%, 1st first; empty: by field size)",
    "mon.hierarchy": "Brackets' order (main 1, main 2, consolation 1, main 3/4)",
    "mon.points": "USBGF master points",
    "mon.division": "Division",
    "mon.division.open": "Open",
    "mon.division.intermediate": "Intermediate",
    "mon.division.novice": "Novice",
    "mon.save": "Save the money",
    "mon.player": "Player",
    "mon.owed": "Owed",
    "mon.paid_col": "Paid",
    "mon.status": "Status",
    "mon.status.paid": "paid",
    "mon.status.unpaid": "not paid",
    "mon.status.none": "—",
    "mon.pay": "Paid",
    "mon.pay_note": "Paid by note",
    "mon.reentry": "Re-entry",
    "mon.refund": "Refund {amount}",
    "mon.note": "Note (a cheque, a transfer, an IOU)",
    "mon.note_needed": "A payment by note needs its text: type it in the field above.",
    "mon.unpaid": "Not paid yet: {names}.",
    "mon.all_paid": "Everyone has paid.",
    "mon.totals": "{entries} entries · collected {collected} of {due} · cash {cash} · notes {notes} · refunds {refunds} · prize pool {pool}",
    "mon.pool_total": "Side pool {pool}: collected {collected} of {pot}",
    "mon.books": "Ledger for the books (CSV)",
    "mon.prize_giving": "Prize-giving sheet",
    "mon.prize_giving_other": "Prize-giving sheet (Italian)",
    "mon.payouts": "Payouts (JSON)",
    "mon.points_csv": "Master points (CSV)",
    "cf.pay": "{name} paid {amount} in cash?",
    "cf.pay_note": "{name} paid {amount} by note ({note})?",
    "cf.reentry": "{name} enters again: one more fee of {fee}?",
    "cf.refund": "Give {amount} back to {name}?",
    "cf.draw_unpaid": "Not paid yet: {names}.",
    "hist.money": "money saved",
    "hist.payment": "{name} paid",
    "hist.refund": "{name} refunded",
    "hist.reentry": "{name} entered again"
  },
  it: {
    "mon.title": "Iscrizioni e pagamenti",
    "mon.settings": "Quote e montepremi",
    "mon.currency": "Valuta (EUR, USD, CHF)",
    "mon.fee": "Quota d'iscrizione",
    "mon.return": "Restituzione (%)",
    "mon.added": "Montepremi aggiunto",
    "mon.shares": "Quote per posizione (%, dal 1°; vuoto: secondo i partecipanti)",
    "mon.hierarchy": "Ordine dei tabelloni (main 1, main 2, consolation 1, main 3/4)",
    "mon.points": "Master point USBGF",
    "mon.division": "Divisione",
    "mon.division.open": "Open",
    "mon.division.intermediate": "Intermedi",
    "mon.division.novice": "Novizi",
    "mon.save": "Salva quote e montepremi",
    "mon.player": "Giocatore",
    "mon.owed": "Dovuto",
    "mon.paid_col": "Pagato",
    "mon.status": "Stato",
    "mon.status.paid": "pagato",
    "mon.status.unpaid": "non pagato",
    "mon.status.none": "—",
    "mon.pay": "Pagato",
    "mon.pay_note": "Pagato con nota",
    "mon.reentry": "Reiscrizione",
    "mon.refund": "Rimborsa {amount}",
    "mon.note": "Nota (assegno, bonifico, pagherò)",
    "mon.note_needed": "Un pagamento con nota ha bisogno del testo: scrivilo nel campo sopra.",
    "mon.unpaid": "Non hanno ancora pagato: {names}.",
    "mon.all_paid": "Hanno pagato tutti.",
    "mon.totals": "{entries} iscrizioni · incassati {collected} su {due} · contanti {cash} · note {notes} · rimborsi {refunds} · montepremi {pool}",
    "mon.pool_total": "Side pool {pool}: incassati {collected} su {pot}",
    "mon.books": "Registro per la contabilità (CSV)",
    "mon.prize_giving": "Foglio della premiazione",
    "mon.prize_giving_other": "Foglio della premiazione (inglese)",
    "mon.payouts": "Premi (JSON)",
    "mon.points_csv": "Master point (CSV)",
    "cf.pay": "{name} ha pagato {amount} in contanti?",
    "cf.pay_note": "{name} ha pagato {amount} con nota ({note})?",
    "cf.reentry": "{name} si reiscrive: un'altra quota di {fee}?",
    "cf.refund": "Restituire {amount} a {name}?",
    "cf.draw_unpaid": "Non hanno ancora pagato: {names}.",
    "hist.money": "quote e montepremi salvati",
    "hist.payment": "{name} ha pagato",
    "hist.refund": "{name} rimborsato",
    "hist.reentry": "{name} si è reiscritto"
  }
};

/** The page's words with these strings merged in: merged once, at load. */
const WORDS = withStrings(STRINGS);

/** @returns {import("../kit/i18n.js").I18n} */
export function moneyI18n() {
  return WORDS;
}

export { STRINGS };
