// @ts-check
/* bgclock dashboard, the tournament screen: entries and payments at the desk
 * (issue 36).  The money's settings (currency, fee, return, money added,
 * shares, the brackets' order, master points), each player's line (owed,
 * paid, paid or not) with "Paid" (cash: what they still owe), "Paid by
 * note", a re-entry and a refund of a credit; who has not paid; the totals;
 * the ledger for the books, the prize-giving sheet and the master points.
 * Everything is the state's `money` (worked out by the server: amounts are
 * integer cents) and the tournament's actions. */
import { button, h } from "../../kit/dom.js";
import { moneyI18n } from "../money-strings.js";
import { screen, ui, value } from "../state.js";

const I18N = moneyI18n();
const t = I18N.t;

/**
 * @typedef {{player: number, name: string, entries: number, owed: number, paid: number,
 *   due: number, credit: number, status: string}} MoneyRow
 * @typedef {{pool: string, entry: number, members: number, pot: number, collected: number}} PoolTotal
 * @typedef {{settings: {currency: string, fee: number, return_pct: string, added: number,
 *   shares: (string|null), hierarchy: (string|null), points: boolean, division: string},
 *   players: MoneyRow[], unpaid: {player: number, name: string, due: number}[],
 *   totals: {entries: number, due: number, collected: number, cash: number, notes: number,
 *   refunds: number, pool: number, pools: PoolTotal[]}}} MoneyView
 * @typedef {function(string, string, any=, string=): Promise<void>} Act
 * @typedef {function(string, string, string, any=): function(): void} Confirmed
 */

/**
 * Cents as the page's language writes an amount, with the currency: 20,00 EUR.
 * @param {number} cents
 * @param {string} currency
 * @returns {string}
 */
export function amount(cents, currency) {
  const sign = cents < 0 ? "-" : "";
  const c = Math.abs(cents);
  const units = String(Math.floor(c / 100));
  const rest = String(c % 100).padStart(2, "0");
  return sign + units + (I18N.lang === "it" ? "," : ".") + rest + " " + currency;
}

/**
 * An amount typed at the desk ("20", "20,50", "20.5") in cents; NaN when it is
 * not one (the server then names the field).
 * @param {string} text
 * @returns {number}
 */
export function parseCents(text) {
  const m = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}

/**
 * Who has not paid yet, in words (the draw's confirmation adds it), or "".
 * @param {MoneyView|undefined} money
 * @returns {string}
 */
export function unpaidWarning(money) {
  if (!money || !money.unpaid.length) return "";
  return t("cf.draw_unpaid", { names: money.unpaid.map((u) => u.name).join(", ") });
}

/**
 * The money's settings form.
 * @param {MoneyView} money
 * @param {Act} act
 * @returns {HTMLElement}
 */
function settingsForm(money, act) {
  const s = money.settings;
  const units = (/** @type {number} */ c) => (c / 100).toFixed(2);
  const box = h("input", /** @type {Object<string, string>} */ (Object.assign(
    { id: "mon-points", type: "checkbox" }, s.points ? { checked: "" } : {})));
  const division = h("select", { id: "mon-division" }, ...["open", "intermediate", "novice"].map(
    (d) => h("option", /** @type {Object<string, string>} */ (Object.assign({ value: d },
      d === s.division ? { selected: "" } : {})), t("mon.division." + d))));
  return h("div", { class: "form", id: "mon-form" },
    h("label", { for: "mon-currency" }, t("mon.currency")),
    h("input", { id: "mon-currency", maxlength: "3", value: s.currency }),
    h("label", { for: "mon-fee" }, t("mon.fee")),
    h("input", { id: "mon-fee", inputmode: "decimal", value: units(s.fee) }),
    h("label", { for: "mon-return" }, t("mon.return")),
    h("input", { id: "mon-return", inputmode: "decimal", value: s.return_pct }),
    h("label", { for: "mon-added" }, t("mon.added")),
    h("input", { id: "mon-added", inputmode: "decimal", value: units(s.added) }),
    h("label", { for: "mon-shares" }, t("mon.shares")),
    h("input", { id: "mon-shares", value: s.shares || "" }),
    h("label", { for: "mon-hierarchy" }, t("mon.hierarchy")),
    h("input", { id: "mon-hierarchy", value: s.hierarchy || "" }),
    h("label", { for: "mon-points" }, t("mon.points")), box,
    h("label", { for: "mon-division" }, t("mon.division")), division,
    h("span", {}),
    button(t("mon.save"), () => {
      const points = /** @type {HTMLInputElement} */ (document.getElementById("mon-points"));
      act("POST", "/money", { currency: value("mon-currency").trim().toUpperCase(),
        fee: parseCents(value("mon-fee")), return_pct: value("mon-return").trim().replace(",", "."),
        added: parseCents(value("mon-added")), shares: value("mon-shares").trim(),
        hierarchy: value("mon-hierarchy").trim(), points: points.checked,
        division: value("mon-division") });
    }));
}

/**
 * The section: settings, who has paid, the totals and the pages.
 * @param {{tournament_id: number, money?: MoneyView}} st
 * @param {Act} act
 * @param {Confirmed} confirmed
 * @returns {HTMLElement|null}
 */
export function moneySection(st, act, confirmed) {
  const money = st.money;
  if (!money) return null;
  const cur = money.settings.currency;
  const rows = money.players.map((p) => {
    const actions = h("td", {});
    if (p.due > 0) {
      actions.append(button(t("mon.pay"), confirmed(t("cf.pay", { name: p.name, amount: amount(p.due, cur) }),
        "POST", "/payments", { player: p.player, cents: p.due, method: "cash" }), { "data-pay": String(p.player) }));
      actions.append(" ", button(t("mon.pay_note"), () => {
        const note = value("mon-note").trim();
        if (!note) {
          screen.message = t("mon.note_needed");
          screen.error = true;
          ui.render();
          return;
        }
        confirmed(t("cf.pay_note", { name: p.name, amount: amount(p.due, cur), note: note }), "POST", "/payments",
          { player: p.player, cents: p.due, method: "note", note: note })();
      }));
    }
    if (p.entries > 0) {
      actions.append(" ", button(t("mon.reentry"), confirmed(
        t("cf.reentry", { name: p.name, fee: amount(money.settings.fee, cur) }), "POST", "/reentries", { player: p.player })));
    }
    if (p.credit > 0) {
      actions.append(" ", button(t("mon.refund", { amount: amount(p.credit, cur) }), confirmed(
        t("cf.refund", { name: p.name, amount: amount(p.credit, cur) }), "POST", "/refunds",
        { player: p.player, cents: p.credit })));
    }
    return h("tr", { "data-player": String(p.player), class: "mon-" + p.status },
      h("td", {}, p.name), h("td", {}, amount(p.owed, cur)), h("td", {}, amount(p.paid, cur)),
      h("td", {}, t("mon.status." + p.status)), actions);
  });
  const tot = money.totals;
  const base = "/api/tournaments/" + st.tournament_id;
  // no key in these addresses: the director's session cookie opens them
  const lang = I18N.lang === "it" ? "it" : "en";
  const link = (/** @type {string} */ href, /** @type {string} */ text) =>
    h("a", { href: base + href, target: "_blank", rel: "noopener" }, text);
  const unpaid = money.unpaid.length
    ? h("p", { class: "err", id: "mon-unpaid", role: "status" }, t("mon.unpaid", { names: money.unpaid.map((u) => u.name).join(", ") }))
    : h("p", { id: "mon-unpaid" }, t("mon.all_paid"));
  return h("section", { id: "mon-section" }, h("h3", {}, t("mon.title")),
    h("h4", {}, t("mon.settings")), settingsForm(money, act), unpaid,
    h("div", { class: "form" }, h("label", { for: "mon-note" }, t("mon.note")),
      h("input", { id: "mon-note", maxlength: "200" })),
    h("div", { class: "scroll-x" }, h("table", { class: "trn-players", id: "mon-players" },
      h("thead", {}, h("tr", {}, ...[t("mon.player"), t("mon.owed"), t("mon.paid_col"), t("mon.status"), ""].map(
        (x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, ...rows))),
    h("p", { id: "mon-totals" }, t("mon.totals", { entries: tot.entries, collected: amount(tot.collected, cur),
      due: amount(tot.due, cur), cash: amount(tot.cash, cur), notes: amount(tot.notes, cur),
      refunds: amount(tot.refunds, cur), pool: amount(tot.pool, cur) })),
    ...tot.pools.map((p) => h("p", {}, t("mon.pool_total", { pool: p.pool, collected: amount(p.collected, cur),
      pot: amount(p.pot, cur) }))),
    h("p", {}, link("/prize-giving.html?lang=" + lang, t("mon.prize_giving")), " · ",
      link("/prize-giving.html?lang=" + (lang === "it" ? "en" : "it"), t("mon.prize_giving_other")), " · ",
      link("/ledger.csv", t("mon.books")), " · ", link("/payouts.json", t("mon.payouts")), " · ",
      link("/points.csv", t("mon.points_csv"))));
}
