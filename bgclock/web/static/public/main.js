// @ts-check
/* bgclock: a public tournament's page (/p/{id}) and a player's own page
 * (/p/{id}/player/{player_id}): one module, which reads which from its
 * address.  No key: what it shows is the server's public projection
 * (server/render/public.py), read at the same address ending in .json.
 *
 * It listens to /p/{id}.stream (server-sent events ``public``: the whole
 * public view now, then after every change, the room display's push); the
 * player's page reads its own .json again at each of them, so it follows
 * the player through the evening.  Running clocks are counted down between
 * two views.  When the director takes the page down the stream ends and
 * the page says it is no longer public. */
import { h } from "../kit/dom.js";
import { fmtShort, timeOfDay } from "../kit/format.js";
import { bySurname } from "../kit/names.js";
import { eventRound, i18n } from "./strings.js";

const I18N = i18n();
const t = I18N.t;

/**
 * @typedef {{phase: string, score: number[], on_turn: (string|null), reserve_ms: number[],
 *   length: number, at_ms: number, provisional: boolean}} Clock
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   a: (string|null), b: (string|null), winner: (string|null), length?: number,
 *   clock: (Clock|null), result: ({score?: number[], source?: string}|null)}} Match
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{event: string, size?: number, rounds: BracketMatch[][]}} Bracket
 * @typedef {{player: string, event: string, round: number, match: (number|null),
 *   table: (number|null), opponent: (string|null), result: string,
 *   score: (number[]|null)}} Result
 * @typedef {{first: number, last: number, label: string, names: string[],
 *   prizes?: string[]}} Placing
 * @typedef {{event: string, complete: boolean, champion: (string|null),
 *   placings: Placing[]}} Standing
 * @typedef {{points: number, score: number[], over: boolean, arrived: boolean}} LateCount
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   absent: string[], winner: (string|null), count?: LateCount}} Late
 * @typedef {{id: number, name: string, withdrawn: boolean}} Player
 * @typedef {{tournament: {id: number, name: string, closed: boolean}, url: string,
 *   server_ms: number, brackets: Bracket[], matches: Match[],
 *   pairings: {event: string, round: number, table: number, a: string, b: string}[],
 *   results: Result[], standings: Standing[], late: Late[], players: Player[]}} Public
 * @typedef {{event: string, round: number, table: (number|null),
 *   opponent: (string|null)}} Next
 * @typedef {{tournament: {id: number, name: string, closed: boolean}, url: string,
 *   server_ms: number, player: Player, next: (Next|null), match: (Match|null),
 *   results: Result[], late: Late[],
 *   prizes: {event: string, label: string, prizes: string[]}[]}} Mine
 */

// /p/{id}, or /p/{club}/{id} (a venue's tournament published under its club's name)
const found = /^\/p\/((?:[a-z][a-z0-9-]{0,31}\/)?\d+)(?:\/player\/(\d+))?\/?$/.exec(location.pathname);
const base = "/p/" + (found ? found[1] : "0");
const playerId = found && found[2] ? found[2] : null;
const dataUrl = (playerId ? base + "/player/" + playerId : base) + ".json";
/** The page's language goes on to the pages it links to. */
const keep = () => "?lang=" + I18N.lang;

/** What the server last sent, when it came, and how the link is. */
const view = {
  /** @type {Public|null} */ pub: null,
  /** @type {Mine|null} */ mine: null,
  at: 0, failed: false, gone: false
};

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("#" + id + " is missing");
  return node;
}

/** A live clock's two reserves now (the side on turn counted down since it came).
 * @param {Clock} c @returns {string} */
function clocks(c) {
  const since = performance.now() - view.at;
  const shown = c.reserve_ms.map((ms, i) => fmtShort(c.on_turn === "AB"[i] && c.phase === "playing" ? ms - since : ms));
  const tail = c.provisional ? " · " + t("pub.provisional") : c.phase === "match_over" ? " · " + t("pub.over") : "";
  return shown[0] + " · " + shown[1] + tail;
}

/** @param {Clock} c @returns {string} */
function score(c) { return c.score[0] + "–" + c.score[1] + " (" + t("pub.to", { n: c.length }) + ")"; }

/** The page's own link for a player. @param {Player} p */
function playerLink(p) {
  return h("a", { href: base + "/player/" + p.id + keep() }, p.name);
}

/** @param {Public} pub */
function renderTables(pub) {
  const rows = pub.matches.filter((m) => m.winner === null && m.table !== null)
    .sort((x, y) => Number(x.table) - Number(y.table))
    .map((m) => h("tr", {},
      h("td", {}, String(m.table)),
      h("td", {}, h("span", {}, (m.a || t("pub.tba")) + " – " + (m.b || t("pub.tba"))), h("br"),
        h("small", {}, eventRound(m.event, m.round))),
      h("td", {}, m.clock ? score(m.clock) : ""),
      h("td", { class: "pub-clock" }, m.clock ? clocks(m.clock) : t("pub.no_clock"))));
  const body = document.querySelector("#pub-tables tbody");
  if (body) body.replaceChildren(...rows);
  byId("pub-tables").hidden = !rows.length;
  byId("pub-no-tables").hidden = rows.length > 0;
}

/** @param {Result} r @returns {string} */
function scoreOf(r) { return r.score ? " " + r.score[0] + "–" + r.score[1] : ""; }

/** @param {Public} pub */
function renderResults(pub) {
  const won = pub.results.filter((r) => r.result === "won" && r.opponent)
    .sort((x, y) => y.round - x.round || x.event.localeCompare(y.event));
  byId("pub-results").replaceChildren(...won.map((r) => h("li", {},
    h("span", { class: "pub-won" }, t("pub.beat", { w: r.player, l: r.opponent })), scoreOf(r),
    " · ", h("small", {}, eventRound(r.event, r.round - 1)))));
  byId("pub-no-results").hidden = won.length > 0;
}

/** @param {Late} l @param {string} who */
function lateLine(l, who) {
  const c = l.count;
  const what = c ? t("pub.late_points", { n: c.points, points: c.points, a: c.score[0], b: c.score[1],
    event: t("pub.ev." + l.event), round: t("pub.round", { n: l.round + 1 }) }) : eventRound(l.event, l.round);
  return h("li", {}, who ? who + ": " + what : what);
}

/** @param {Public} pub */
function renderLate(pub) {
  const open = pub.late.filter((l) => l.count && !l.count.arrived && l.winner === null);
  byId("pub-late").replaceChildren(...open.map((l) => lateLine(l, l.absent.join(", "))));
  byId("v-late").hidden = !open.length;
}

/** @param {Public} pub */
function renderStandings(pub) {
  byId("pub-standings").replaceChildren(...pub.standings.map((s) => h("div", {},
    h("h3", {}, t("pub.ev." + s.event) + (s.champion ? " · " + t("pub.champion") + ": " + s.champion : "")),
    h("ol", { class: "pub-list" }, ...s.placings.map((p) => h("li", {},
      h("strong", {}, p.label + ". "), p.names.join(", "),
      p.prizes && p.prizes.length ? " — " + p.prizes.join(" + ") : ""))))));
}

/** @param {Public} pub */
function renderBrackets(pub) {
  byId("pub-brackets").replaceChildren(...pub.brackets.map((b) => h("div", { class: "pub-bracket" },
    h("h3", {}, t("pub.ev." + b.event)),
    ...b.rounds.flatMap((matches, r) => [
      h("h4", {}, r === b.rounds.length - 1 && matches.length === 1 ? t("pub.final") : t("pub.round", { n: r + 1 })),
      h("ol", {}, ...matches.map((m) => h("li", {},
        ...[m.a, m.b].flatMap((name, k) => [k ? " – " : "",
          h("span", { class: name && name === m.winner ? "pub-won" : "" }, name || (r ? t("pub.tba") : t("pub.bye")))]))))])
  )));
  byId("pub-no-draw").hidden = pub.brackets.length > 0;
}

/** @param {Public} pub */
function renderPlayers(pub) {
  const sorted = [...pub.players].sort((x, y) => bySurname(x.name, y.name));
  byId("pub-players").replaceChildren(...sorted.map((p) => h("li", {}, playerLink(p),
    p.withdrawn ? " (" + t("pub.withdrawn") + ")" : "")));
}

/** Lower case without accents: "Niccolò" is found by "nicco". @param {string} s */
function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }

function renderSearch() {
  const pub = view.pub;
  const box = /** @type {HTMLInputElement} */ (byId("pub-search"));
  const q = fold(box.value.trim());
  const list = byId("pub-found");
  if (!pub || !q) { list.replaceChildren(); return; }
  const hits = pub.players.filter((p) => fold(p.name).includes(q)).slice(0, 20);
  list.replaceChildren(...(hits.length ? hits.map((p) => h("li", {}, playerLink(p)))
    : [h("li", {}, t("pub.found_none"))]));
}

/** @param {Mine} mine */
function renderMine(mine) {
  const next = mine.next;
  const card = h("div", { class: "pub-card" });
  if (!next) card.append(h("p", {}, t("pub.none_next")));
  else {
    card.append(h("p", { class: "big" }, next.table !== null ? t("pub.at_table", { table: next.table }) : t("pub.waiting")),
      h("p", {}, next.opponent ? t("pub.against", { name: next.opponent }) : t("pub.tbd")),
      h("p", {}, h("small", {}, eventRound(next.event, next.round))));
    const c = mine.match && mine.match.clock;
    if (c) card.append(h("p", { class: "pub-clock" }, score(c) + " · " + clocks(c)));
  }
  byId("pub-next").replaceChildren(card);
  byId("pub-mine").replaceChildren(...mine.results.map((r) => h("li", {},
    r.result === "bye" ? t("pub.bye") : h("span", { class: r.result === "won" ? "pub-won" : "" },
      t(r.result === "won" ? "pub.won" : "pub.lost", { name: r.opponent })),
    scoreOf(r), " · ", h("small", {}, eventRound(r.event, r.round - 1)))));
  if (!mine.results.length) byId("pub-mine").replaceChildren(h("li", {}, t("pub.no_results")));
  byId("pub-late-mine").replaceChildren(...(mine.late.length ? [h("h2", {}, t("pub.late_mine")),
    h("ul", { class: "pub-list" }, ...mine.late.map((l) => lateLine(l, "")))] : []));
  byId("pub-prizes-mine").replaceChildren(...(mine.prizes.length ? [h("h2", {}, t("pub.prizes")),
    h("ul", { class: "pub-list" }, ...mine.prizes.map((p) => h("li", {},
      t("pub.place", { event: t("pub.ev." + p.event), label: p.label }) +
      (p.prizes.length ? " — " + p.prizes.join(" + ") : ""))))] : []));
  byId("pub-back").setAttribute("href", base + keep());
}

function render() {
  byId("pub-status").textContent = view.gone ? "" : view.failed ? t("pub.offline") : "";
  const err = byId("pub-error");
  err.hidden = !view.gone;
  err.textContent = view.gone ? t("pub.gone") : "";
  const data = playerId ? view.mine : view.pub;
  byId("v-player").hidden = !playerId || !view.mine || view.gone;
  byId("v-event").hidden = Boolean(playerId) || !view.pub || view.gone;
  if (!data || view.gone) return;
  const name = data.tournament.name;
  byId("pub-title").textContent = playerId && view.mine ? view.mine.player.name : name;
  byId("pub-sub").textContent = (playerId ? name + " · " : "") + t(data.tournament.closed ? "pub.closed" : "pub.live");
  document.title = (playerId && view.mine ? view.mine.player.name + " · " : "") + name;
  byId("pub-updated").textContent = t("pub.updated", { t: timeOfDay(data.server_ms, I18N.lang) });
  if (playerId && view.mine) renderMine(view.mine);
  if (!playerId && view.pub) {
    const pub = view.pub;
    renderTables(pub); renderLate(pub); renderResults(pub); renderStandings(pub);
    renderBrackets(pub); renderPlayers(pub); renderSearch();
  }
  document.body.dataset.ready = "1";
}

/** Read the page's own .json (the player's, or the tournament's). */
async function read() {
  try {
    const r = await fetch(dataUrl, { cache: "no-store" });
    if (r.status === 404) { view.gone = true; render(); return; }
    const body = await r.json();
    if (!r.ok) throw new Error(String(r.status));
    if (playerId) view.mine = body; else view.pub = body;
    view.at = performance.now(); view.failed = false; view.gone = false;
  } catch (e) {
    view.failed = true;
  }
  render();
}

/** The pushed view: the tournament's page shows it; the player's page
 * reads its own selection of it again. */
function listen() {
  if (typeof EventSource === "undefined") { read(); setInterval(read, 5000); return; }
  const stream = new EventSource(base + ".stream");
  stream.addEventListener("public", (e) => {
    document.body.dataset.pushed = String(Number(document.body.dataset.pushed || 0) + 1);
    if (playerId) { read(); return; }
    try {
      view.pub = JSON.parse(/** @type {MessageEvent} */ (e).data);
      view.at = performance.now(); view.failed = false;
    } catch (err) { view.failed = true; }
    render();
  });
  stream.addEventListener("error", () => {
    // a page taken down answers 404: the stream closes for good; say so
    if (stream.readyState === 2) read();
    else { view.failed = true; render(); }
  });
}

function applyStrings() {
  document.documentElement.lang = I18N.lang;
  I18N.apply(document.body);
  render();
}

byId("pub-search").addEventListener("input", renderSearch);
byId("pub-search-form").addEventListener("submit", (e) => e.preventDefault());
byId("btn-lang").addEventListener("click", () => { I18N.setLang(I18N.lang === "en" ? "it" : "en"); applyStrings(); });
// the running clocks, counted down between two views
setInterval(() => {
  if (view.gone) return;
  if (playerId && view.mine && view.mine.match && view.mine.match.clock) renderMine(view.mine);
  else if (!playerId && view.pub && view.pub.matches.some((m) => m.clock && m.clock.phase === "playing")) renderTables(view.pub);
}, 1000);
applyStrings();
read();
listen();
