/* bgclock: the room display of a tournament (read-only).
 *
 * The draw sheet (Main and Progressive Consolation) and every table's match
 * live: score and both clocks.  Opened with the tournament's room token (or
 * the director's key) in the URL; it reads /api/tournaments/{id}/room.json
 * every two seconds and counts the running clock down in between. */
import { i18n } from "./tourney-strings.js";

const I18N = i18n();
const t = I18N.t;
const POLL_MS = 2000;

/**
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{size: number, rounds: BracketMatch[][]}} Bracket
 * @typedef {{phase: string, score: number[], on_turn: (string|null), reserve_ms: number[],
 *   length: number, at_ms: number}} LiveClock
 * @typedef {{event: string, round: number, match: number, table: number, a: (string|null),
 *   b: (string|null), winner: (string|null), clock: string, live: (LiveClock|null)}} RoomMatch
 * @typedef {{tournament: {id: number, name: string}, main: (Bracket|null),
 *   consolation: (Bracket|null), matches: RoomMatch[]}} Room
 */

const parts = location.pathname.split("/");
const tournamentId = parts[parts.length - 1];
const search = new URLSearchParams(location.search);
const token = search.get("token");
const key = search.get("key");

/** @type {{room: (Room|null), at: number, failed: boolean}} */
const view = { room: null, at: 0, failed: false };

/**
 * @param {string} tag
 * @param {Object<string, string>} [attrs]
 * @param {...(Node|string|null)} children
 * @returns {HTMLElement}
 */
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) if (c !== null) node.append(c);
  return node;
}

/**
 * m:ss of a time in ms (never below 0:00).
 * @param {number} ms
 * @returns {string}
 */
function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

async function poll() {
  const q = token ? "token=" + encodeURIComponent(token) : "key=" + encodeURIComponent(key || "");
  try {
    const r = await fetch("/api/tournaments/" + tournamentId + "/room.json?" + q);
    const data = await r.json();
    if (!r.ok) throw new Error(data.message || String(r.status));
    view.room = normalise(data);
    view.at = performance.now();
    view.failed = false;
  } catch (e) {
    view.failed = true;
  }
  render();
}

/**
 * The server's room.json: a match's ``clock`` is its live clock (or null).
 * @param {any} data
 * @returns {Room}
 */
function normalise(data) {
  data.matches = data.matches.map((/** @type {any} */ m) => {
    const live = m.clock && typeof m.clock === "object" ? m.clock : null;
    return Object.assign({}, m, { live: live, clock: live ? "required" : "none" });
  });
  return data;
}

/**
 * A bracket as columns of rounds.
 * @param {Bracket|null} bracket
 * @param {string} id
 */
function sheet(bracket, id) {
  const node = document.getElementById(id);
  if (!node) return;
  if (!bracket) { node.replaceChildren(); return; }
  const cols = bracket.rounds.map((matches, r) => {
    const title = r === bracket.rounds.length - 1 && matches.length === 1 ? t("room.final") : t("room.round", { n: r + 1 });
    const list = h("ol", { class: "sheet-round" });
    for (const m of matches) {
      const name = (/** @type {string|null} */ x) => x || (r === 0 ? t("trn.bye") : t("trn.tbd"));
      const side = (/** @type {string|null} */ x) => h("span", { class: m.winner && m.winner === x ? "won" : "" }, name(x));
      list.append(h("li", {}, side(m.a), " – ", side(m.b)));
    }
    return h("div", { class: "sheet-col" }, h("h3", {}, title), list);
  });
  node.replaceChildren(...cols);
}

function render() {
  const status = document.getElementById("room-status");
  if (status) status.textContent = view.failed ? t("room.offline") : "";
  const room = view.room;
  if (!room) return;
  const title = document.getElementById("room-title");
  if (title) title.textContent = room.tournament.name;
  document.title = room.tournament.name;
  const body = document.querySelector("#room-tables tbody");
  if (body) {
    const since = performance.now() - view.at;
    const rows = room.matches.filter((m) => !m.winner).map((m) => {
      const live = m.live;
      let score = "", clock = t("room.no_clock");
      if (live) {
        score = live.score[0] + " – " + live.score[1] + " / " + live.length;
        const reserves = live.reserve_ms.map((ms, i) => (live.on_turn === "AB"[i] && live.phase === "playing" ? ms - since : ms));
        clock = fmt(reserves[0]) + " · " + fmt(reserves[1]) + (live.phase === "match_over" ? " · " + t("room.over") : "");
      }
      const event = t(m.event === "main" ? "room.main" : "room.consolation") + " · " + t("room.round", { n: m.round + 1 });
      return h("tr", {}, h("td", {}, String(m.table)), h("td", {}, event),
        h("td", {}, (m.a || "") + " – " + (m.b || "")), h("td", {}, score), h("td", {}, clock));
    });
    body.replaceChildren(...rows);
  }
  sheet(room.main, "sheet-main");
  sheet(room.consolation, "sheet-consolation");
}

function applyStrings() {
  document.documentElement.lang = I18N.lang;
  I18N.apply(document.body);
  render();
}

const lang = document.getElementById("btn-lang");
if (lang) lang.addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); applyStrings(); });
applyStrings();
poll();
setInterval(poll, POLL_MS);
setInterval(render, 250);
