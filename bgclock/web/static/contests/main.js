/* bgclock dashboard: the Swing and couples screen (issue 13).
 *
 * Creates a tournament's Swing (players, starting VP, CPP schedule, rule
 * book, clock tables and a fixed reserve) and pairs its rounds; each game's
 * table link and the buttons to enter a result by hand (a result from a
 * table's clock comes in by itself).  Creates the couples event and starts
 * each encounter's phases at tables.  Shows the VP table, the CPP now and
 * next, who is all-in, the VP chart and the couples standings
 * (contests/view/parts.js).  A section of director.html opened by its header's
 * button; re-reads the state every few seconds while open and unfocused. */
import { i18n } from "./strings.js";
import { encounterView, standingsTable, swingHead, vpChart, vpTable } from "./view/parts.js";
import { api } from "../kit/api.js";
import { button, h } from "../kit/dom.js";
import { mountScreen, tournamentHead } from "../kit/screen.js";
import { refusalText } from "../tourney/strings.js";

const I18N = i18n();
const t = I18N.t;
const REFRESH_MS = 2500;

/**
 * @typedef {import("./view/parts.js").SwingState} SwingState
 * @typedef {import("./view/parts.js").CouplesState} CouplesState
 * @typedef {import("./view/parts.js").CouplesMatch} CouplesMatch
 * @typedef {{players: {id: number, name: string, withdrawn: boolean}[],
 *   tables: Object<string, number>, swing: (SwingState|null),
 *   couples: (CouplesState|null)}} ContestState
 */

const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {ContestState|null} */ state: null,
  /** @type {Object<string, string>} table id -> its link */ links: {},
  message: "",
  error: false,
  /** @type {{table: number, table_id: number, message: string, spec: any}[]} tables that did not take their match */
  notReady: [],
  /** @type {number|null} */ timer: null
};

/** @returns {HTMLElement} */
function root() {
  return /** @type {HTMLElement} */ (document.getElementById("contests"));
}

/** @returns {string} */
function base() {
  return "/api/tournaments/" + screen.tournament;
}

/**
 * @param {string} id
 * @returns {string}
 */
function value(id) {
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|HTMLSelectElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

async function load() {
  if (screen.tournament == null) return;
  try {
    screen.state = await api("GET", base() + "/state");
  } catch (e) {
    screen.message = refusalText(/** @type {Error} */ (e));
    screen.error = true;
  }
  render();
}

/**
 * Run one action; show its outcome; keep the table links it gives.
 * @param {string} path
 * @param {any} body
 */
async function act(path, body) {
  try {
    const out = await api("POST", base() + path, body);
    if (out && out.state) screen.state = out.state;
    for (const tb of (out && out.tables) || []) if (tb.table_id && tb.url) screen.links[String(tb.table_id)] = tb.url;
    screen.message = t("con.done");
    screen.error = false;
    // a table a command reached meanwhile did not take its match: the director renews it
    screen.notReady = (out && out.not_ready) || [];
    if (screen.notReady.length) screen.error = true;
  } catch (e) {
    screen.message = refusalText(/** @type {Error} */ (e));
    screen.error = true;
  }
  render();
}

/**
 * A link to the clock table serving table number ``n`` (read once from the server).
 * @param {number|null} n
 * @returns {HTMLElement|null}
 */
function tableLink(n) {
  const st = screen.state;
  if (n == null || !st) return null;
  const tid = st.tables[String(n)];
  if (tid == null) return null;
  const a = h("a", { href: screen.links[String(tid)] || "#", target: "_blank", rel: "noopener", class: "table-link",
    "data-table": String(n) }, t("sw.table", { n: n }));
  if (!screen.links[String(tid)]) {
    api("GET", "/api/tables/" + tid).then((info) => {
      screen.links[String(tid)] = location.origin + "/t/" + tid + "?token=" + info.token;
      a.setAttribute("href", screen.links[String(tid)]);
    }).catch(() => { /* no link: the table number is still shown */ });
  }
  return a;
}

/** @returns {HTMLElement} */
function swingSection() {
  const st = /** @type {ContestState} */ (screen.state);
  const out = h("section", { class: "swing", "aria-labelledby": "con-swing-h" }, h("h3", { id: "con-swing-h" }, t("sw.title")));
  const sw = st.swing;
  if (!sw) {
    const form = h("div", { class: "form" },
      h("label", { for: "sw-players" }, t("sw.players")), h("input", { id: "sw-players" }),
      h("label", { for: "sw-vp" }, t("sw.start_vp")), h("input", { id: "sw-vp", type: "number", min: "1", value: "1000" }),
      h("label", { for: "sw-cpp" }, t("sw.cpp")), h("input", { id: "sw-cpp", value: "100,200" }),
      h("label", { for: "sw-rules" }, t("sw.rules")), h("input", { id: "sw-rules", value: "it-tournament" }),
      h("label", { for: "sw-clock" }, t("sw.clock")),
      h("select", { id: "sw-clock" }, h("option", { value: "required" }, "✓"), h("option", { value: "none" }, "—")),
      h("label", { for: "sw-reserve" }, t("sw.reserve")), h("input", { id: "sw-reserve", type: "number", min: "0" }),
      h("span", {}),
      button(t("sw.create"), () => {
        /** @type {Object<string, any>} */
        const body = {
          start_vp: Number(value("sw-vp")),
          cpp: value("sw-cpp").split(",").filter((x) => x.trim()).map(Number),
          rules: value("sw-rules").trim(), clock: value("sw-clock")
        };
        const ids = value("sw-players").split(/[ ,]+/).filter((x) => x.trim()).map(Number);
        if (ids.length) body.players = ids;
        if (value("sw-reserve").trim()) body.clock_override = { reserve_ms: Math.round(Number(value("sw-reserve")) * 1000) };
        act("/swing", body);
      }, { id: "sw-create" }));
    out.append(form);
    return out;
  }
  out.append(swingHead(sw, t));
  if (!sw.winner && !sw.under_way) out.append(button(t("sw.pair", { n: sw.round }), () => act("/swing/rounds", {}), { id: "sw-pair" }));
  if (sw.under_way) {
    const list = h("ol", { class: "swing-games", start: "0" });
    sw.games.forEach((g, i) => {
      const item = h("li", { "data-game": String(i) }, g.a + " – " + g.b + " · " + t("sw.stake", { s: g.stake }) + (g.all_in ? " · " + t("sw.all_in") : ""));
      const link = tableLink(sw.clock === "none" ? null : g.table);
      if (link) item.append(" · ", link);
      else item.append(" · " + t("sw.table", { n: g.table }));
      if (g.winner) {
        item.append(" · ★ " + g.winner + " (" + t("sw." + g.result) + (g.cube > 1 ? " ×" + g.cube : "") + ")");
      } else {
        const result = h("select", { id: "sw-result-" + i, "aria-label": t("sw.result") },
          ...["single", "gammon", "backgammon"].map((r) => h("option", { value: r }, t("sw." + r))));
        const cube = h("input", { id: "sw-cube-" + i, type: "number", min: "1", value: "1", "aria-label": t("sw.cube"), class: "cube" });
        item.append(" ", result, " ", cube);
        for (const who of [g.a, g.b]) {
          item.append(" ", button(t("sw.won", { name: who }), () => act("/swing/results",
            { game: i, winner: who, result: value("sw-result-" + i), cube: Number(value("sw-cube-" + i)) })));
        }
      }
      list.append(item);
    });
    out.append(h("h4", {}, t("sw.games")), list);
  }
  if (!sw.under_way && sw.correctable && sw.rounds.length) {
    // the last round played can be corrected until the next one is paired
    const last = sw.rounds[sw.rounds.length - 1];
    const list = h("ol", { class: "swing-last", start: "0" });
    last.games.forEach((g, i) => {
      const item = h("li", {}, g.a + " – " + g.b + " · ★ " + g.winner + " (" + t("sw." + g.result)
        + (g.cube > 1 ? " ×" + g.cube : "") + ")" + (g.corrected ? " · " + t("sw.corrected") : ""));
      const result = h("select", { id: "sw-fix-result-" + i, "aria-label": t("sw.result") },
        ...["single", "gammon", "backgammon"].map((r) => h("option", { value: r }, t("sw." + r))));
      const cube = h("input", { id: "sw-fix-cube-" + i, type: "number", min: "1", value: "1", "aria-label": t("sw.cube"), class: "cube" });
      item.append(" ", result, " ", cube);
      for (const who of [g.a, g.b]) {
        item.append(" ", button(t("sw.correct", { name: who }), () => act("/swing/corrections",
          { game: i, winner: who, result: value("sw-fix-result-" + i), cube: Number(value("sw-fix-cube-" + i)) })));
      }
      list.append(item);
    });
    out.append(h("h4", {}, t("sw.last_round", { n: last.round })), list);
  }
  out.append(h("div", { class: "swing-grid" }, vpTable(sw, t), vpChart(sw, t)));
  return out;
}

/** @returns {HTMLElement} */
function couplesSection() {
  const st = /** @type {ContestState} */ (screen.state);
  const out = h("section", { class: "couples", "aria-labelledby": "con-couples-h" }, h("h3", { id: "con-couples-h" }, t("cp.title")));
  const cp = st.couples;
  if (!cp) {
    out.append(h("div", { class: "form" },
      h("label", { for: "cp-list" }, t("cp.couples")), h("textarea", { id: "cp-list", rows: "4" }),
      h("label", { for: "cp-format" }, t("cp.format")),
      h("select", { id: "cp-format" }, h("option", { value: "round_robin" }, t("cp.round_robin")),
        h("option", { value: "knockout" }, t("cp.knockout"))),
      h("label", { for: "cp-length" }, t("cp.length")), h("input", { id: "cp-length", type: "number", min: "1", value: "5" }),
      h("label", { for: "cp-rules" }, t("sw.rules")), h("input", { id: "cp-rules", value: "it-tournament" }),
      h("label", { for: "cp-clock" }, t("sw.clock")),
      h("select", { id: "cp-clock" }, h("option", { value: "required" }, "✓"), h("option", { value: "none" }, "—")),
      h("span", {}),
      button(t("cp.create"), () => {
        const couples = value("cp-list").split("\n").filter((x) => x.trim()).map((line) => {
          const [name, p1, p2] = line.split(",").map((x) => x.trim());
          return { name: name, players: [Number(p1), Number(p2)] };
        });
        act("/couples", { couples: couples, format: value("cp-format"), length: Number(value("cp-length")),
          rules: value("cp-rules").trim(), clock: value("cp-clock") });
      }, { id: "cp-create" })));
    return out;
  }
  out.append(h("h4", {}, t("cp.standings")), standingsTable(cp, t));
  for (const e of cp.encounters) {
    // results by hand: a match at a table, or one of the phase now to play
    const open = Math.min(...e.matches.filter((m) => !m.winner).map((m) => m.phase));
    const view = encounterView(e, t, (/** @type {CouplesMatch} */ m) => {
      const span = h("span", {});
      const link = cp.clock === "none" || m.winner ? null : tableLink(m.table);
      if (link) span.append(link, " ");
      if (m.winner) {
        const other = m.winner === m.a ? m.b : m.a;
        span.append(button(t("sw.correct", { name: other }), () => act("/couples/corrections",
          { encounter: e.encounter, phase: m.phase, match: m.match, winner: other })), " ");
      }
      if (!m.winner && (m.table != null || (!e.winner && m.phase === open))) {
        for (const who of [m.a, m.b]) {
          span.append(button(t("sw.won", { name: who }), () => act("/couples/results",
            { encounter: e.encounter, phase: m.phase, match: m.match, winner: who })), " ");
        }
      }
      return span;
    });
    view.setAttribute("data-encounter", String(e.encounter));
    const next = e.matches.some((m) => m.table == null && !m.winner);
    if (next && !e.winner) view.append(button(t("cp.start_phase"), () => act("/couples/phases", { encounter: e.encounter })));
    if (next && e.winner) view.append(button(t("cp.more"), () => act("/couples/phases", { encounter: e.encounter, more: true })));
    out.append(view);
  }
  return out;
}

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "con-pick", title: t("con.title"), label: t("con.pick") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status" }, screen.message);
  node.replaceChildren(head, msg);
  if (screen.tournament == null) { node.append(h("p", {}, t("con.none"))); return; }
  if (!screen.state) return;
  const players = h("p", { class: "con-players" }, screen.state.players.filter((p) => !p.withdrawn)
    .map((p) => p.id + " " + p.name).join(" · "));
  for (const x of screen.notReady) {
    // a command reached the table meanwhile: its next match, once the director says so
    node.append(h("p", { class: "msg err" }, t("con.not_ready", { n: x.table, m: x.message }), " ",
      button(t("con.renew", { n: x.table }), () => {
        api("POST", "/api/tables/" + x.table_id + "/next-match", x.spec).then(() => {
          screen.notReady = screen.notReady.filter((y) => y !== x);
          screen.message = t("con.done");
          screen.error = false;
          render();
        }).catch((e) => { screen.message = String(e.message); screen.error = true; render(); });
      })));
  }
  node.append(players, swingSection(), couplesSection());
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-contests", openText: () => t("con.open"),
  refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

export { load, render, screen, toggle };
