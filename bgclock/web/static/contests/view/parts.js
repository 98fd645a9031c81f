/* bgclock: how Swing and couples are shown (issue 13), by the dashboard's
 * contests screen and the room display alike: the VP table, the current CPP
 * and the next, who is all-in this round, a chart of each player's VP across
 * rounds (SVG drawn here, no library) and the couples standings.  Pure DOM
 * building: the callers fetch the state and add their own buttons. */

/**
 * @typedef {{a: string, b: string, table: number, stake: number, all_in: boolean,
 *   winner: (string|null), result: string, cube: number, source: (string|null),
 *   corrected?: (Object<string, any>|null)}} SwingGame
 * @typedef {{players: string[], start_vp: number, cpp_schedule: number[], rules: string,
 *   clock: string, vp: Object<string, number>, out: string[], winner: (string|null),
 *   round: number, cpp: number, next_cpp: number, under_way: boolean, seed: (number|null),
 *   sitting: (string|null), games: SwingGame[], all_in: string[], correctable: boolean,
 *   rounds: {round: number, cpp: number, sat_out: string[], games: SwingGame[]}[],
 *   history: Object<string, number>[]}} SwingState
 * @typedef {{phase: number, match: number, a: string, b: string, teams: boolean,
 *   table: (number|null), winner: (string|null), score: (number[]|null),
 *   source: (string|null), corrected?: (Object<string, any>|null)}} CouplesMatch
 * @typedef {{encounter: number, round: number, a: string, b: string,
 *   wins: Object<string, number>, winner: (string|null),
 *   decided_after_phase: (number|null), matches: CouplesMatch[]}} EncounterState
 * @typedef {{place: number, couple: string, encounters: number, matches: number, points: number}} Standing
 * @typedef {{format: string, length: number, rules: string, clock: string,
 *   couples: {name: string, players: string[]}[], encounters: EncounterState[],
 *   standings: Standing[], champion: (string|null)}} CouplesState
 * @typedef {function(string, Object<string, (string|number)>=): string} Translate
 */

import { h } from "../../kit/dom.js";
const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Object<string, string>} attrs
 * @param {...(Node|string)} children
 * @returns {SVGElement}
 */
function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/**
 * A colour per player, far apart on the wheel.
 * @param {number} i
 * @returns {string}
 */
export function colour(i) {
  return "hsl(" + Math.round((i * 137.508) % 360) + ", 70%, 38%)";
}

/**
 * The VP table: each player's VP, out / all-in / sitting out, best first.
 * @param {SwingState} sw
 * @param {Translate} t
 * @returns {HTMLElement}
 */
export function vpTable(sw, t) {
  const order = sw.players.slice().sort((x, y) => sw.vp[y] - sw.vp[x] || sw.players.indexOf(x) - sw.players.indexOf(y));
  const allIn = new Set(sw.all_in);
  const rows = order.map((name) => {
    const status = sw.vp[name] === 0 ? t("sw.out")
      : allIn.has(name) ? t("sw.all_in")
        : sw.sitting === name ? t("sw.sits_out") : "";
    return h("tr", { class: sw.vp[name] === 0 ? "out" : "" },
      h("td", {}, h("span", { class: "swatch", style: "background:" + colour(sw.players.indexOf(name)) }), name),
      h("td", { class: "num" }, String(sw.vp[name])), h("td", {}, status));
  });
  return h("table", { class: "vp-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("sw.player")), h("th", {}, t("sw.vp")), h("th", {}, t("sw.status")))),
    h("tbody", {}, ...rows));
}

/**
 * The CPP now and next, the round, who is all-in, the winner.
 * @param {SwingState} sw
 * @param {Translate} t
 * @returns {HTMLElement}
 */
export function swingHead(sw, t) {
  const out = h("div", { class: "swing-head" });
  if (sw.winner) {
    out.append(h("p", { class: "swing-winner" }, "★ " + t("sw.winner", { name: sw.winner })));
    return out;
  }
  out.append(h("p", {}, h("strong", {}, t("sw.round", { n: sw.round })), " · ",
    h("strong", { class: "cpp-now" }, t("sw.cpp_now", { c: sw.cpp })), " · ",
    h("span", { class: "cpp-next" }, t("sw.cpp_next", { c: sw.next_cpp }))));
  if (sw.under_way) {
    out.append(h("p", { class: "all-in" }, sw.all_in.length
      ? t("sw.all_in_round", { names: sw.all_in.join(", ") }) : t("sw.nobody_all_in")));
  }
  return out;
}

/**
 * Each player's VP after each round, as lines (SVG, no library).
 * @param {SwingState} sw
 * @param {Translate} t
 * @returns {SVGElement}
 */
export function vpChart(sw, t) {
  const W = 640, H = 260, L = 56, R = 110, T = 12, B = 28;
  const total = sw.start_vp * sw.players.length;
  const rounds = Math.max(1, sw.history.length - 1);
  const x = (/** @type {number} */ r) => L + (r * (W - L - R)) / rounds;
  const y = (/** @type {number} */ v) => T + (H - T - B) * (1 - v / total);
  const svg = s("svg", { viewBox: "0 0 " + W + " " + H, class: "vp-chart", role: "img",
    "aria-label": t("sw.chart") }, s("title", {}, t("sw.chart")));
  for (const v of [0, total / 2, total]) {
    svg.append(s("line", { x1: String(L), x2: String(W - R), y1: String(y(v)), y2: String(y(v)), class: "grid" }),
      s("text", { x: String(L - 6), y: String(y(v) + 4), "text-anchor": "end" }, String(Math.round(v))));
  }
  for (let r = 0; r <= rounds; r++) {
    svg.append(s("text", { x: String(x(r)), y: String(H - 8), "text-anchor": "middle" }, String(r)));
  }
  sw.players.forEach((name, i) => {
    const points = sw.history.map((vp, r) => x(r).toFixed(1) + "," + y(vp[name] || 0).toFixed(1)).join(" ");
    const last = sw.history[sw.history.length - 1] || {};
    svg.append(s("polyline", { points: points, fill: "none", stroke: colour(i), "stroke-width": "2.5",
      "data-player": name }));
    // the players still in are labelled (those out share the 0 line: the table names them)
    if (last[name]) {
      svg.append(s("text", { x: String(W - R + 6), y: String(y(last[name]) + 4), fill: colour(i),
        class: "label" }, name));
    }
  });
  return svg;
}

/**
 * The couples standings: encounters won, the encounter between two tied
 * couples, matches won, points difference; couples still tied share the
 * place the server gives (the same number on each line).
 * @param {CouplesState} cp
 * @param {Translate} t
 * @returns {HTMLElement}
 */
export function standingsTable(cp, t) {
  const rows = cp.standings.map((r) => h("tr", {}, h("td", { class: "num" }, String(r.place)),
    h("td", {}, r.couple), h("td", { class: "num" }, String(r.encounters)),
    h("td", { class: "num" }, String(r.matches)),
    h("td", { class: "num" }, (r.points > 0 ? "+" : "") + r.points)));
  const table = h("table", { class: "standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("cp.couple")), h("th", {}, t("cp.encounters")),
      h("th", {}, t("cp.matches")), h("th", {}, t("cp.points")))),
    h("tbody", {}, ...rows));
  const out = h("div", {}, table);
  if (cp.champion) out.prepend(h("p", { class: "swing-winner" }, "★ " + t("cp.champion", { name: cp.champion })));
  return out;
}

/**
 * One encounter's matches by phase (``extra`` adds the director's buttons).
 * @param {EncounterState} e
 * @param {Translate} t
 * @param {function(CouplesMatch): (Node|null)} [extra]
 * @returns {HTMLElement}
 */
export function encounterView(e, t, extra) {
  const out = h("div", { class: "encounter" },
    h("h4", {}, t("cp.encounter", { n: e.encounter + 1, a: e.a, b: e.b }) + " · " + e.wins[e.a] + "–" + e.wins[e.b]));
  if (e.winner) out.append(h("p", { class: "decided" }, t("cp.decided", { name: e.winner, w: e.wins[e.a] + "–" + e.wins[e.b] })));
  for (const phase of [1, 2, 3]) {
    const list = h("ul", {});
    for (const m of e.matches.filter((x) => x.phase === phase)) {
      const item = h("li", {}, (m.winner === m.a ? "★ " : "") + m.a + " – " + m.b + (m.winner === m.b ? " ★" : ""));
      if (m.teams) item.append(" (" + t("cp.consultation") + ")");
      if (m.table != null) item.append(" · " + t("sw.table", { n: m.table }));
      if (m.score) item.append(" · " + m.score[0] + "–" + m.score[1]);
      if (m.corrected) item.append(" · " + t("sw.corrected"));
      const more = extra ? extra(m) : null;
      if (more) item.append(" ", more);
      list.append(item);
    }
    out.append(h("h5", {}, t("cp.phase", { n: phase })), list);
  }
  return out;
}

/**
 * The games of the round under way: players, table, stake, all-in, result.
 * @param {SwingState} sw
 * @param {Translate} t
 * @returns {HTMLElement}
 */
export function swingGames(sw, t) {
  const list = h("ul", { class: "swing-games" });
  for (const g of sw.games) {
    list.append(h("li", {}, t("sw.table", { n: g.table }) + " · " + g.a + " – " + g.b + " · "
      + t("sw.stake", { s: g.stake }) + (g.all_in ? " · " + t("sw.all_in") : "")
      + (g.winner ? " · ★ " + g.winner + " (" + t("sw." + g.result) + (g.cube > 1 ? " ×" + g.cube : "") + ")" : "")));
  }
  return list;
}
