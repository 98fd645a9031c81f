/* bgclock: the room display of a tournament (read-only).
 *
 * One view at a time, in large type for a screen seen from across the room
 * (1920x1080 from 5 m), rotating every ROTATE_MS: the current round by table
 * (score and both clocks), the players by name (their table and opponent),
 * the latest results, the late arrivals' countdowns, the ruling committee
 * and its appeals, and each event's draw sheet.  A view too long for the
 * screen is shown a page at a time (a draw sheet: a block of 8 first-round
 * matches with the rounds they lead to).  Before round 1 a welcome view
 * lists the registered players; once the Main is decided the champion view
 * leads (with the consolation's and the Main's places).  ``?view=champion|
 * welcome|tables|names|results|late|committee|main|consolation`` pins a view
 * (``&page=N``), ``?rotate=0`` stops the rotation.  "Where do I play?" (the
 * header's search) shows a player's table, opponent, event and round above
 * the view while something is typed.
 *
 * Opened with the tournament's room token (or the director's key); it
 * listens to /api/tournaments/{id}/room.stream (server-sent events: the
 * room's whole view now, then after every change; the token opens nothing
 * but this and room.json) and counts the running clocks and the late counts
 * down in between.  While the stream is not open (reconnecting, refused, or
 * no EventSource) it reads room.json every POLL_MS instead. */
import { i18n } from "./tourney-strings.js";
import { mmss } from "./tourney-desk.js";
import { timeOfDay } from "./kit/format.js";
import { h } from "./kit/dom.js";
import { findSeats, firstMatchLosers, i18n as standingsStrings, resultText } from "./standings-strings.js";
import "./timekeeper-strings.js";

standingsStrings();
const I18N = i18n();
const t = I18N.t;
const POLL_MS = 2000;
const ROTATE_MS = 12000;
const TABLE_ROWS = 13;
const NAMES_PER_PAGE = 30;
const LATE_ROWS = 7;
const SHEET_BLOCK = 8;

/**
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{size: number, rounds: BracketMatch[][], late_slots?: number[],
 *   late_open?: boolean}} Bracket
 * @typedef {{phase: string, score: number[], on_turn: (string|null), reserve_ms: number[],
 *   length: number, at_ms: number, provisional?: boolean}} LiveClock
 * @typedef {{event: string, round: number, match: number, table: number, a: (string|null),
 *   b: (string|null), winner: (string|null), clock: string, live: (LiveClock|null),
 *   result: (Object<string, any>|null), length?: number}} RoomMatch
 * @typedef {{label: string, names: string[], first: number}} RoomPlacing
 * @typedef {{event: string, complete: boolean, champion: (string|null),
 *   placings: RoomPlacing[], in_play: string[]}} RoomStanding
 * @typedef {{points: number, score: number[], over: boolean, arrived: boolean,
 *   next_point_ms: (number|null), out_ms: (number|null), at_ms: number}} LateCount
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   absent: string[], from_ms: number, clock: boolean, winner: (string|null),
 *   arrived_ms: Object<string, number>, count?: LateCount}} Late
 * @typedef {{appeal: number, event: string, round: number, match: number, ruling: string,
 *   panel: number[], decision: (string|null)}} Appeal
 * @typedef {{tournament: {id: number, name: string}, main: (Bracket|null),
 *   consolation: (Bracket|null), matches: RoomMatch[], server_ms: number, late: Late[],
 *   committee: {id: number, name: string}[], appeals: Appeal[],
 *   champions: Object<string, (string|null)>, standings: RoomStanding[], registered: string[],
 *   result_order: Array<[string, number, number]>,
 *   seats?: import("./standings-strings.js").SeatedMatch[]}} Room
 * @typedef {{id: string, pages: number}} View
 */

const parts = location.pathname.split("/");
const tournamentId = parts[parts.length - 1];
const search = new URLSearchParams(location.search);
const token = search.get("token");
const key = search.get("key");
const pinned = search.get("view");
const rotate = search.get("rotate") !== "0" && !pinned;

/** @type {{room: (Room|null), at: number, failed: boolean, view: number, page: number, shown: number}} */
const view = { room: null, at: 0, failed: false, view: 0, page: Number(search.get("page") || 1) - 1, shown: 0 };

const credential = () =>
  token ? "token=" + encodeURIComponent(token) : "key=" + encodeURIComponent(key || "");

/** A room.json body arrived (read or pushed). @param {any} data */
function received(data) {
  view.room = normalise(data);
  view.at = performance.now();
  view.failed = false;
  // the room's other events (room-flight.js) read the same body
  document.dispatchEvent(new CustomEvent("bg-room", { detail: data }));
}

async function poll() {
  try {
    const r = await fetch("/api/tournaments/" + tournamentId + "/room.json?" + credential());
    const data = await r.json();
    if (!r.ok) throw new Error(data.message || String(r.status));
    received(data);
  } catch (e) {
    view.failed = true;
  }
  render();
}

/** The pushed room (null: not opened, or no EventSource in this browser).
 * @type {EventSource|null} */
let stream = null;

function listen() {
  if (typeof EventSource === "undefined") return;
  stream = new EventSource("/api/tournaments/" + tournamentId + "/room.stream?" + credential());
  stream.addEventListener("room", (e) => {
    try {
      received(JSON.parse(/** @type {MessageEvent} */ (e).data));
    } catch (err) {
      view.failed = true;
    }
    document.body.dataset.pushed = String(Number(document.body.dataset.pushed || 0) + 1);
    render();
  });
}

/** Read room.json only while the stream is not open. */
function pollUnlessPushed() {
  if (stream === null || stream.readyState !== 1) poll();
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
  data.late = data.late || [];
  data.committee = data.committee || [];
  data.appeals = data.appeals || [];
  data.champions = data.champions || {};
  data.standings = data.standings || [];
  data.registered = data.registered || [];
  data.result_order = data.result_order || [];
  return data;
}

/** @returns {number} the server's now, counted on since the last poll */
function serverNow() {
  const room = view.room;
  return room ? room.server_ms + (performance.now() - view.at) : Date.now();
}

/**
 * @param {number} ms
 * @returns {string}
 */
function hm(ms) {
  return timeOfDay(ms, I18N.lang);
}

/**
 * @param {RoomMatch} m
 * @returns {string}
 */
function eventRound(m) {
  return t("room." + m.event) + " · " + t("room.round", { n: m.round + 1 });
}

// ------------------------------------------------------------------ views

/**
 * @param {Room} room
 * @returns {RoomMatch[]}
 */
function liveMatches(room) {
  return room.matches.filter((m) => !m.winner).sort((x, y) => x.table - y.table);
}

/**
 * The decided matches by event (the Main first), newest first in each (the
 * order the results came in; a result without one by round).
 * @param {Room} room
 * @returns {RoomMatch[]}
 */
function results(room) {
  /** @type {Map<string, number>} */
  const order = new Map(room.result_order.map((k, n) => [k.join(":"), n]));
  const when = (/** @type {RoomMatch} */ m) => order.get(m.event + ":" + m.round + ":" + m.match) ?? m.round;
  return room.matches.filter((m) => m.winner)
    .sort((x, y) => (Number(x.event !== "main") - Number(y.event !== "main")) || (when(y) - when(x)) || (x.table - y.table));
}

/**
 * Every player of the draw, by name: where they play now, or waiting, or out.
 * @param {Room} room
 * @returns {{name: string, table: (number|null), vs: string, status: string}[]}
 */
function byName(room) {
  /** @type {Map<string, {name: string, table: (number|null), vs: string, status: string}>} */
  const out = new Map();
  /** @type {Set<string>} */
  const lost = new Set();
  /** @type {Set<string>} */
  const inCons = new Set();
  for (const [event, b] of /** @type {[string, Bracket|null][]} */ ([["main", room.main], ["consolation", room.consolation]])) {
    if (!b) continue;
    for (const round of b.rounds) {
      for (const m of round) {
        for (const p of [m.a, m.b]) {
          if (!p) continue;
          if (!out.has(p)) out.set(p, { name: p, table: null, vs: "", status: "waiting" });
          if (event === "consolation") inCons.add(p);
          if (m.winner && m.winner !== p && m.a && m.b) lost.add(event + ":" + p);
        }
      }
    }
    const last = b.rounds[b.rounds.length - 1];
    if (last && last.length === 1 && last[0].winner) {
      const champ = out.get(last[0].winner);
      if (champ) champ.status = event === "main" ? "champion" : champ.status;
    }
  }
  const first = firstMatchLosers(room.main);
  for (const p of out.values()) {
    if (p.status === "champion") continue;
    const outMain = lost.has("main:" + p.name);
    if (!outMain) continue;
    // a first-match loser goes on to the consolation: not out before it is drawn
    if (!room.consolation && first.has(p.name)) p.status = "waiting_cons";
    else if (!inCons.has(p.name) || lost.has("consolation:" + p.name)) p.status = "out";
  }
  for (const m of liveMatches(room)) {
    for (const [p, o] of [[m.a, m.b], [m.b, m.a]]) {
      const row = p ? out.get(p) : null;
      if (row) { row.table = m.table; row.vs = o || ""; row.status = "playing"; }
    }
  }
  return [...out.values()].sort((x, y) => x.name.localeCompare(y.name));
}

/**
 * @param {Room} room
 * @returns {Late[]}
 */
function lates(room) {
  return room.late.filter((l) => !l.winner || (l.count && l.count.over));
}

/**
 * @param {Bracket|null} b
 * @returns {number}
 */
function sheetPages(b) {
  if (!b || !b.rounds.length) return 0;
  return Math.max(1, Math.ceil(b.rounds[0].length / SHEET_BLOCK));
}

/**
 * The views with something to show, and how many pages each takes.
 * @param {Room} room
 * @returns {View[]}
 */
function views(room) {
  const pages = (/** @type {number} */ n, /** @type {number} */ per) => Math.ceil(n / per);
  const started = room.matches.length > 0;
  /** @type {View[]} */
  const all = [
    { id: "champion", pages: room.champions.main ? 1 : 0 },
    { id: "welcome", pages: started ? 0 : Math.max(1, pages(room.registered.length, NAMES_PER_PAGE)) },
    { id: "tables", pages: pages(liveMatches(room).length, TABLE_ROWS) },
    { id: "names", pages: pages(byName(room).length, NAMES_PER_PAGE) },
    { id: "results", pages: pages(results(room).length, TABLE_ROWS) },
    { id: "late", pages: pages(lates(room).length, LATE_ROWS) },
    { id: "committee", pages: room.committee.length || room.appeals.length ? 1 : 0 },
    { id: "main", pages: sheetPages(room.main) },
    { id: "consolation", pages: sheetPages(room.consolation) }
  ];
  if (pinned) return all.filter((v) => v.id === pinned).map((v) => ({ id: v.id, pages: Math.max(v.pages, 1) }));
  return all.filter((v) => v.pages > 0);
}

const SECTIONS = /** @type {Object<string, string>} */ ({
  champion: "v-champion", welcome: "v-welcome", tables: "v-tables", names: "v-names", results: "v-results", late: "v-late",
  committee: "v-committee", main: "v-main", consolation: "v-cons"
});
const TITLES = /** @type {Object<string, string>} */ ({
  champion: "st.champion", welcome: "st.welcome", tables: "room.tables", names: "roomx.names", results: "roomx.results", late: "roomx.late",
  committee: "roomx.committee", main: "room.main", consolation: "room.consolation"
});

/**
 * @template T
 * @param {T[]} list
 * @param {number} page
 * @param {number} per
 * @returns {T[]}
 */
function pageOf(list, page, per) {
  return list.slice(page * per, page * per + per);
}

/**
 * @param {Room} room
 * @param {number} page
 */
function renderTables(room, page) {
  const body = document.querySelector("#room-tables tbody");
  if (!body) return;
  const since = performance.now() - view.at;
  const rows = pageOf(liveMatches(room), page, TABLE_ROWS).map((m) => {
    const live = m.live;
    let score = "", clock = t("room.no_clock");
    if (live) {
      score = live.score[0] + " – " + live.score[1] + " / " + live.length;
      const reserves = live.reserve_ms.map((ms, i) => (live.on_turn === "AB"[i] && live.phase === "playing" ? ms - since : ms));
      // a flag worked out while the table's timekeeper is away is no result (protocol: Provisional flags)
      clock = mmss(reserves[0]) + " · " + mmss(reserves[1]) + (live.provisional ? " · " + t("room.provisional")
        : live.phase === "match_over" ? " · " + t("room.over") : "");
    }
    const late = room.late.find((l) => l.event === m.event && l.round === m.round && l.match === m.match && !l.clock);
    if (late && late.count && !late.count.arrived) clock = t("roomx.late") + " · " + late.count.score.join(" – ");
    return h("tr", {}, h("td", {}, String(m.table)), h("td", {}, eventRound(m)),
      h("td", {}, (m.a || "") + " – " + (m.b || "")), h("td", {}, score), h("td", {}, clock));
  });
  body.replaceChildren(...rows);
}

/**
 * @param {Room} room
 * @param {number} page
 */
function renderNames(room, page) {
  const list = document.getElementById("room-names");
  if (!list) return;
  list.replaceChildren(...pageOf(byName(room), page, NAMES_PER_PAGE).map((p) => {
    if (p.status === "playing") {
      return h("li", {}, h("span", { class: "tn" }, String(p.table)), p.name + " ",
        h("span", { class: "vs" }, t("roomx.vs") + " " + p.vs));
    }
    const status = p.status === "champion" ? "★ " + t("roomx.champion")
      : p.status === "waiting_cons" ? t("st.waiting_cons") : t("roomx." + p.status);
    return h("li", {}, h("span", { class: "tn" }, "–"), p.name + " ", h("span", { class: "vs" }, "(" + status + ")"));
  }));
}

/**
 * @param {Room} room
 * @param {number} page
 */
function renderResults(room, page) {
  const body = document.querySelector("#room-results tbody");
  if (!body) return;
  /** @type {HTMLElement[]} */
  const rows = [];
  let heading = "";
  for (const m of pageOf(results(room), page, TABLE_ROWS)) {
    if (m.event !== heading) {
      heading = m.event;
      rows.push(h("tr", { class: "room-heading" }, h("th", { colspan: "4", scope: "colgroup" },
        t("room." + m.event))));
    }
    const loser = m.winner === m.a ? m.b : m.a;
    const r = m.result || {};
    rows.push(h("tr", {}, h("td", {}, String(m.table)), h("td", {}, eventRound(m)),
      h("td", {}, "★ " + (m.winner || "") + " – " + (loser || "")), h("td", {}, resultText(m, r, t))));
  }
  body.replaceChildren(...rows);
}

/**
 * The champion view: each event's champion, then the Main's places.
 * @param {Room} room
 */
function renderChampion(room) {
  const node = document.getElementById("room-champion");
  if (!node) return;
  const items = [];
  const main = room.standings.find((s) => s.event === "main");
  if (room.champions.main) items.push(h("p", { class: "room-champ" }, "★ " + room.champions.main));
  for (const s of room.standings) {
    if (s.event === "main" || !s.champion) continue;
    items.push(h("p", { class: "room-champ-other" }, t("st.event." + s.event) + ": ★ " + s.champion));
  }
  if (main) {
    const list = h("ol", { class: "room-places" });
    for (const p of main.placings.slice(1, 4)) list.append(h("li", {}, h("span", { class: "tn" }, p.label), p.names.join(", ")));
    items.push(list);
  }
  node.replaceChildren(...items);
}

/**
 * Before round 1: the registered players, by name.
 * @param {Room} room
 * @param {number} page
 */
function renderWelcome(room, page) {
  const count = document.getElementById("room-welcome-count");
  if (count) count.textContent = t("st.registered", { n: room.registered.length });
  const list = document.getElementById("room-registered");
  if (list) list.replaceChildren(...pageOf(room.registered, page, NAMES_PER_PAGE).map((n) => h("li", {}, n)));
}

/**
 * "Where do I play?": the players found, above the view.
 * @param {Room} room
 */
function renderSearch(room) {
  const box = /** @type {HTMLInputElement|null} */ (document.getElementById("room-search"));
  const node = document.getElementById("v-search");
  const list = document.getElementById("room-found");
  if (!box || !node || !list) return;
  const query = box.value.trim();
  node.hidden = !query;
  if (!query) return;
  const found = findSeats(room.seats || room.matches, query);
  const eventName = (/** @type {string} */ e) => t("st.event." + e);
  list.replaceChildren(...(found.length ? found.map((s) => h("li", {}, h("span", { class: "tn" }, String(s.table)),
    t("st.search_row", { name: s.name, table: s.table, vs: s.vs, event: eventName(s.event), n: s.round + 1 })))
    : [h("li", {}, t("st.search_none"))]));
}

/**
 * @param {Room} room
 * @param {number} page
 */
function renderLate(room, page) {
  const list = document.getElementById("room-late");
  if (!list) return;
  const now = serverNow();
  list.replaceChildren(...pageOf(lates(room), page, LATE_ROWS).map((l) => {
    const table = l.table == null ? "–" : String(l.table);
    const names = h("strong", {}, l.absent.join(", "));
    if (l.clock) return h("li", {}, names, " ", t("roomx.late_clock", { table: table, t: hm(l.from_ms) }));
    const c = l.count;
    const item = h("li", { "data-late": l.event + "-" + l.round + "-" + l.match }, names, " ", t("roomx.late_count", { table: table }));
    if (!c) return item;
    item.append(" · ", h("span", { class: "count" }, t("roomx.points", { points: c.points, a: c.score[0], b: c.score[1] })));
    if (c.over) item.append(" · ", h("span", { class: "over" }, t("roomx.dq")));
    else if (c.arrived) item.append(" · " + t("roomx.arrived"));
    else if (now < l.from_ms) item.append(" · " + t("roomx.from", { t: hm(l.from_ms) }));
    else {
      if (c.next_point_ms != null) item.append(" · ", h("span", { class: "count" }, t("roomx.next", { t: mmss(c.next_point_ms - now) })));
      if (c.out_ms != null) item.append(" · ", h("span", { class: "count" }, t("roomx.out_in", { t: mmss(c.out_ms - now) })));
    }
    return item;
  }));
}

/** @param {Room} room */
function renderCommittee(room) {
  const members = document.getElementById("room-committee");
  if (members) members.textContent = room.committee.map((m) => m.name).join(" · ") || "–";
  const list = document.getElementById("room-appeals");
  if (!list) return;
  const names = new Map(room.committee.map((m) => [m.id, m.name]));
  list.replaceChildren(...room.appeals.slice(-6).map((a) => {
    const m = room.matches.find((x) => x.event === a.event && x.round === a.round && x.match === a.match);
    const decision = a.decision ? t("roomx." + a.decision) : t("roomx.pending");
    const panel = a.panel.map((p) => names.get(p) || "#" + p).join(", ");
    return h("li", {}, h("strong", {}, "#" + a.appeal + " · " + t("room.table") + " " + (m ? m.table : "–")), " " + a.ruling + " — " + decision
      + " (" + t("roomx.panel") + ": " + panel + ")");
  }));
}

/**
 * A block of a bracket: 8 first-round matches and the rounds they lead to.
 * @param {Bracket|null} bracket
 * @param {string} id
 * @param {number} page
 */
function sheet(bracket, id, page) {
  const node = document.getElementById(id);
  if (!node) return;
  if (!bracket) { node.replaceChildren(); return; }
  const first = bracket.rounds.length ? bracket.rounds[0].length : 0;
  const from = page * SHEET_BLOCK, to = Math.min(first, from + SHEET_BLOCK);
  const cols = bracket.rounds.map((matches, r) => {
    const title = r === bracket.rounds.length - 1 && matches.length === 1 ? t("room.final") : t("room.round", { n: r + 1 });
    const list = h("ol", { class: "sheet-round" });
    const lo = Math.floor(from / 2 ** r), hi = Math.max(lo + 1, Math.ceil(to / 2 ** r));
    matches.slice(lo, hi).forEach((m, k) => {
      const at = 2 * (lo + k);
      const open = (/** @type {number} */ pos) => r === 0 && !!bracket.late_open && (bracket.late_slots || []).includes(pos);
      const name = (/** @type {string|null} */ x, /** @type {number} */ pos) => x
        || (open(pos) ? t("st.late_slot") : r === 0 ? t("trn.bye") : "\u00a0");
      const side = (/** @type {string|null} */ x, /** @type {number} */ pos) => h("span", {
        class: (m.winner && m.winner === x ? "won" : "") + (!x && open(pos) ? " late-slot" : "") }, name(x, pos));
      list.append(h("li", {}, side(m.a, at), side(m.b, at + 1)));
    });
    return h("div", { class: "sheet-col" }, h("h3", {}, title), list);
  });
  node.replaceChildren(...cols);
}

function advance() {
  const room = view.room;
  if (!room || !rotate) return;
  const vs = views(room);
  if (!vs.length) return;
  const cur = vs[view.view % vs.length];
  if (view.page + 1 < cur.pages) view.page += 1;
  else { view.view = (view.view + 1) % vs.length; view.page = 0; }
  render();
}

function render() {
  const status = document.getElementById("room-status");
  if (status) status.textContent = view.failed ? t("room.offline") : "";
  const now = document.getElementById("room-now");
  if (now && view.room) now.textContent = hm(serverNow());
  const room = view.room;
  if (!room) return;
  const title = document.getElementById("room-title");
  if (title) title.textContent = room.tournament.name;
  document.title = room.tournament.name;
  const vs = views(room);
  if (!vs.length) return;
  if (view.view >= vs.length) { view.view = 0; view.page = 0; }
  const cur = vs[view.view];
  const page = Math.min(view.page, cur.pages - 1);
  for (const [id, section] of Object.entries(SECTIONS)) {
    const node = document.getElementById(section);
    if (node) node.hidden = id !== cur.id;
  }
  renderSearch(room);
  if (cur.id === "champion") renderChampion(room);
  else if (cur.id === "welcome") renderWelcome(room, page);
  else if (cur.id === "tables") renderTables(room, page);
  else if (cur.id === "names") renderNames(room, page);
  else if (cur.id === "results") renderResults(room, page);
  else if (cur.id === "late") renderLate(room, page);
  else if (cur.id === "committee") renderCommittee(room);
  else sheet(cur.id === "main" ? room.main : room.consolation, cur.id === "main" ? "sheet-main" : "sheet-consolation", page);
  if (cur.id !== "tables") renderTables(room, 0);   // kept current (and readable by tests)
  if (cur.id !== "main") sheet(room.main, "sheet-main", 0);
  const pageNode = document.getElementById("room-page");
  if (pageNode) pageNode.textContent = cur.pages > 1 ? t("roomx.page", { view: t(TITLES[cur.id]), n: page + 1, of: cur.pages }) : "";
  const dots = document.getElementById("room-dots");
  if (dots) dots.replaceChildren(...vs.map((v, i) => h("span", { class: i === view.view ? "on" : "", title: t(TITLES[v.id]) })));
  document.body.dataset.view = cur.id;
}

function applyStrings() {
  document.documentElement.lang = I18N.lang;
  I18N.apply(document.body);
  const box = document.getElementById("room-search");
  if (box) box.setAttribute("placeholder", t("st.search_help"));
  render();
}

const searchBox = document.getElementById("room-search");
if (searchBox) searchBox.addEventListener("input", () => render());
const searchForm = document.querySelector("form.room-search");
if (searchForm) searchForm.addEventListener("submit", (e) => e.preventDefault());
const lang = document.getElementById("btn-lang");
if (lang) lang.addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); applyStrings(); });
if (pinned) view.view = 0;
applyStrings();
poll();
listen();
setInterval(pollUnlessPushed, POLL_MS);
setInterval(render, 250);
setInterval(advance, ROTATE_MS);
