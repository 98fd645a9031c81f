// @ts-check
/* bgclock dashboard, the tournament screen: side pools (jackpots, issue 23
 * §5), part of the standings section (view/standings.js).
 *
 * Each pool of the tournament in a line (event, entry, pot, members, split)
 * with Edit (its fields into the form) and Remove (confirmed); the form adds
 * a pool or replaces the one of the same name: ``POST .../side-pools``
 * {pool, event, players (ids), entry (cents), split (per cents, 1st first)}.
 * What the page can tell before sending (no name, an amount it cannot read,
 * fewer than 2 players, per cents not adding to 100) is refused here in the
 * director's language, naming the field, and nothing is sent; the server's
 * refusals come back through the catalogue (tourney/strings.js). */
import { button, h } from "../../kit/dom.js";
import { act, confirmed } from "../actions.js";
import { screen, ui } from "../state.js";
import { i18n } from "../strings.js";

const I18N = i18n();
const t = I18N.t;

/**
 * @typedef {{pool: string, event: string, entry: number, members: string[], split: number[],
 *   pot: number}} SidePool
 * @typedef {{players: {id: number, name: string, withdrawn: boolean}[],
 *   side_pools?: SidePool[]}} PoolsState
 */

/** What is typed in the form, kept across the screen's re-renders (the
 * screen is built again after every action and refusal). */
const draft = { pool: "", event: "main", entry: "", split: "", /** @type {Set<number>} */ players: new Set() };

/**
 * Cents as money in the page's language: 1250 -> "12.50" (English), "12,50" (Italian).
 * @param {number} cents
 * @returns {string}
 */
export function money(cents) {
  const text = (Math.floor(cents / 100)) + "." + String(cents % 100).padStart(2, "0");
  return I18N.lang === "it" ? text.replace(".", ",") : text;
}

/**
 * An amount typed by the director in cents ("12.50", "12,50", "12"), or
 * null when it is not one.
 * @param {string} text
 * @returns {number|null}
 */
export function parseMoney(text) {
  const m = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + (m[2] ? Number(m[2].padEnd(2, "0")) : 0);
}

/**
 * The body of the pool typed, or the refusal (in the page's language,
 * naming the field) when the page can already tell it is wrong.
 * @returns {{body: Object<string, any>}|{refusal: string}}
 */
function typedPool() {
  const pool = draft.pool.trim();
  if (!pool) return { refusal: t("pool.bad_name") };
  const entry = parseMoney(draft.entry);
  if (entry == null) return { refusal: t("pool.bad_entry") };
  const players = [...draft.players].sort((x, y) => x - y);
  if (players.length < 2) return { refusal: t("pool.bad_players") };
  const parts = draft.split.split(/[,;\s]+/).filter((x) => x);
  const split = parts.map(Number);
  const sum = split.reduce((x, y) => x + y, 0);
  if (!parts.length || split.length > players.length || split.some((x) => !Number.isInteger(x) || x < 0 || x > 100)
    || sum !== 100) {
    return { refusal: t("pool.bad_split", { sum: String(split.every(Number.isFinite) ? sum : "?"), n: players.length }) };
  }
  return { body: { pool: pool, event: draft.event, players: players, entry: entry, split: split } };
}

/** @param {string} text */
function refuse(text) {
  screen.message = text;
  screen.error = true;
  ui.render();
}

/**
 * @param {SidePool} p
 * @param {PoolsState} st
 */
function edit(p, st) {
  draft.pool = p.pool;
  draft.event = p.event;
  draft.entry = money(p.entry);
  draft.split = p.split.join(", ");
  draft.players = new Set(st.players.filter((x) => p.members.includes(x.name)).map((x) => x.id));
  ui.render();
}

/**
 * The side pools: the list and the form.
 * @param {PoolsState} st
 * @param {string[]} events the events a pool can be set on now
 * @returns {HTMLElement}
 */
export function poolsSection(st, events) {
  const eventName = (/** @type {string} */ e) => t("st.event." + e);
  const pools = st.side_pools || [];
  const list = h("ul", { id: "pool-list" }, ...(pools.length ? pools.map((p) => h("li", { "data-pool": p.pool },
    t("pool.row", { pool: p.pool, event: eventName(p.event), entry: money(p.entry), pot: money(p.pot),
      n: p.members.length, split: p.split.join("/") }) + " ",
    button(t("pool.edit", { pool: p.pool }), () => edit(p, st)), " ",
    button(t("pool.remove", { pool: p.pool }), confirmed(
      t("cf.pool_remove", { pool: p.pool, n: p.members.length, pot: money(p.pot) }),
      "POST", "/side-pools", { pool: p.pool, players: [] }))))
    : [h("li", {}, t("pool.none"))]));
  if (!events.includes(draft.event)) draft.event = events[0] || "main";
  const name = /** @type {HTMLInputElement} */ (h("input", { id: "pool-name", maxlength: "60" }));
  name.value = draft.pool;
  name.addEventListener("input", () => { draft.pool = name.value; });
  const event = /** @type {HTMLSelectElement} */ (h("select", { id: "pool-event" },
    ...events.map((e) => h("option", { value: e }, eventName(e)))));
  event.value = draft.event;
  event.addEventListener("change", () => { draft.event = event.value; });
  const entry = /** @type {HTMLInputElement} */ (h("input", { id: "pool-entry", inputmode: "decimal",
    placeholder: money(1000) }));
  entry.value = draft.entry;
  entry.addEventListener("input", () => { draft.entry = entry.value; });
  const split = /** @type {HTMLInputElement} */ (h("input", { id: "pool-split", placeholder: "50, 30, 20" }));
  split.value = draft.split;
  split.addEventListener("input", () => { draft.split = split.value; });
  const boxes = h("fieldset", { id: "pool-players", class: "pool-players" }, h("legend", {}, t("pool.players")),
    ...st.players.filter((p) => !p.withdrawn || draft.players.has(p.id)).map((p) => {
      const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "pool-p" + p.id,
        value: String(p.id) }));
      box.checked = draft.players.has(p.id);
      box.addEventListener("change", () => {
        if (box.checked) draft.players.add(p.id); else draft.players.delete(p.id);
      });
      return h("label", { for: "pool-p" + p.id }, box, " " + p.name);
    }));
  const save = button(t("pool.save"), () => {
    const typed = typedPool();
    if ("refusal" in typed) { refuse(typed.refusal); return; }
    act("POST", "/side-pools", typed.body).then(() => {
      if (screen.error) return;  // refused: what was typed stays
      draft.pool = ""; draft.entry = ""; draft.split = ""; draft.players = new Set();
      ui.render();
    });
  }, { id: "pool-save" });
  return h("div", { id: "st-pools" }, h("h4", {}, t("pool.title")), h("p", {}, t("pool.help")), list,
    h("div", { class: "form" },
      h("label", { for: "pool-name" }, t("pool.name")), name,
      h("label", { for: "pool-event" }, t("pool.event")), event,
      h("label", { for: "pool-entry" }, t("pool.entry")), entry,
      h("label", { for: "pool-split" }, t("pool.split")), split),
    boxes, save);
}
