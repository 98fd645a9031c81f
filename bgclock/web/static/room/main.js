// @ts-check
/* bgclock: the room display of a tournament (read-only).  This module is
 * the entry: the rotation and the render; the state (state.js), the link
 * (stream.js) and the views (view/) sit beside it.
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
 * Opened with the tournament's room token (or the director's session); it
 * listens to /api/tournaments/{id}/room.stream (server-sent events: the
 * room's whole view now, then after every change; the token opens nothing
 * but this and room.json) and counts the running clocks and the late counts
 * down in between.  While the stream is not open (reconnecting, refused, or
 * no EventSource) it reads room.json every POLL_MS instead. */
import { h } from "../kit/dom.js";
import { POLL_MS, ROTATE_MS, pinned, rotate, serverNow, ui, view, views } from "./state.js";
import { listen, poll, pollUnlessPushed } from "./stream.js";
import { hm, i18n } from "./strings.js";
import { renderCommittee } from "./view/committee.js";
import { renderChampion, renderNames, renderSearch, renderWelcome } from "./view/names.js";
import { sheet } from "./view/sheet.js";
import { renderLate, renderResults, renderTables } from "./view/tables.js";
import "./view/contests.js";
import "./view/flight.js";

const I18N = i18n();
const t = I18N.t;

const SECTIONS = /** @type {Object<string, string>} */ ({
  champion: "v-champion", welcome: "v-welcome", tables: "v-tables", names: "v-names", results: "v-results", late: "v-late",
  committee: "v-committee", main: "v-main", consolation: "v-cons"
});
const TITLES = /** @type {Object<string, string>} */ ({
  champion: "st.champion", welcome: "st.welcome", tables: "room.tables", names: "roomx.names", results: "roomx.results", late: "roomx.late",
  committee: "roomx.committee", main: "room.main", consolation: "room.consolation"
});

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
ui.render = render;
if (pinned) view.view = 0;
applyStrings();
poll();
listen();
setInterval(pollUnlessPushed, POLL_MS);
setInterval(render, 250);
setInterval(advance, ROTATE_MS);
