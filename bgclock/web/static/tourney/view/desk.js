/* bgclock dashboard: the director's desk around the rounds (issue 12).
 *
 * Late arrivals at a match (mark a player absent; the server's count, its
 * next point and the disqualification instant; the late player's arrival),
 * score sheets of hand-entered results (a sheet for a player or the
 * director's; mismatches flagged), the ruling committee and its appeals, and
 * the exports.  Sections of the tournament screen (tourney/main.js), built from
 * the state it reads; every action goes through its ``act``. */
import { i18n } from "../strings.js";
import { flowI18n } from "../flow-strings.js";
import { fmtShort, timeOfDay } from "../../kit/format.js";
import { button, h } from "../../kit/dom.js";
import { confirmed } from "../actions.js";

const I18N = i18n();
const t = I18N.t;
const FL = flowI18n();

/**
 * @typedef {{points: number, score: number[], over: boolean, arrived: boolean,
 *   next_point_ms: (number|null), out_ms: (number|null), at_ms: number}} LateCount
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   a: (string|null), b: (string|null), absent: string[], from_ms: number, clock: boolean,
 *   arrived_ms: Object<string, number>, winner: (string|null), count?: LateCount}} Late
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   a: (string|null), b: (string|null),
 *   sheets: Object<string, {winner: string, score?: number[], games?: number[][], via?: string}>,
 *   winner: (string|null), mismatch: boolean, flagged?: boolean, outcome?: string,
 *   trailing?: (string|null), game?: (number|null), why?: (string|null),
 *   presumption?: (Presumption|null)}} Sheet
 * @typedef {{by: string, missing: string, winner: string, score: (number[]|null), via: string}} Presumption
 * @typedef {{appeal: number, event: string, round: number, match: number, by: number,
 *   ruling: string, panel: number[], decision: (string|null), hearing?: (string|null)}} Appeal
 * @typedef {{clash: number, table: number, table_id: number, match: string, players: string[],
 *   held: {winner: string, source: string, score?: number[]},
 *   clock: {winner: string, score: number[]}, at_ms: number,
 *   dismissed: (Object<string, any>|null)}} Clash
 * @typedef {{id: number, name: string}} Member
 * @typedef {{tournament_id: number, players: {id: number, name: string}[], late?: Late[],
 *   sheets?: Sheet[], committee?: Member[], appeals?: Appeal[],
 *   matches: {event: string, round: number, match: number, table: number,
 *   winner: (string|null)}[], last_chance?: (object|null)}} DeskState
 * @typedef {function(string, string, any=): Promise<void>} Act
 */

/**
 * @param {string} id
 * @returns {string}
 */
function value(id) {
  const node = /** @type {HTMLInputElement|null} */ (document.getElementById(id));
  return node ? node.value.trim() : "";
}

/**
 * @param {number} ms
 * @returns {string}
 */
function hm(ms) {
  return timeOfDay(ms, I18N.lang);
}

/**
 * The buttons next to an undecided match: mark a player absent.
 * @param {DeskState} st
 * @param {string} event
 * @param {number} r
 * @param {number} i
 * @param {{a: (string|null), b: (string|null), winner: (string|null)}} m
 * @param {Act} act
 * @returns {HTMLElement[]}
 */
export function matchButtons(st, event, r, i, m, act) {
  if (!m.a || !m.b || m.winner) return [];
  const late = (st.late || []).find((x) => x.event === event && x.round === r && x.match === i);
  /** @type {HTMLElement[]} */
  const out = [];
  for (const name of [m.a, m.b]) {
    if (late && late.absent.includes(name)) continue;
    const player = st.players.find((p) => p.name === name);
    if (!player) continue;
    out.push(button(t("desk.absent", { name: name }),
      () => act("POST", "/late/absent", { event: event, round: r, match: i, player: player.id })));
  }
  return out;
}

/**
 * One late arrival in a line (the dashboard and the room display).
 * @param {Late} late
 * @returns {string}
 */
export function lateText(late) {
  const names = late.absent.join(", ");
  const table = late.table == null ? "–" : String(late.table);
  if (late.clock) return t("desk.late_clock", { names: names, table: table, t: hm(late.from_ms) });
  const c = late.count;
  if (!c) return names;
  let line = t("desk.late_count", { names: names, table: table, points: c.points, a: c.score[0], b: c.score[1] });
  if (c.over) return line + " · " + t("desk.over");
  if (c.arrived) return line + " · " + t("desk.arrived");
  if (c.at_ms < late.from_ms) return line + " · " + t("desk.from", { t: hm(late.from_ms) });
  if (c.next_point_ms != null) line += " · " + t("desk.next", { t: fmtShort(c.next_point_ms - c.at_ms) });
  if (c.out_ms != null) line += " · " + t("desk.out", { t: fmtShort(c.out_ms - c.at_ms) });
  return line;
}

/**
 * @param {DeskState} st
 * @param {Act} act
 * @returns {HTMLElement}
 */
function lateSection(st, act) {
  const out = h("section", { id: "desk-late" }, h("h3", {}, t("desk.late")));
  const lates = st.late || [];
  if (!lates.length) out.append(h("p", {}, t("desk.late_none")));
  const list = h("ul", {});
  for (const late of lates) {
    const item = h("li", { "data-late": late.event + "-" + late.round + "-" + late.match }, lateText(late));
    if (!late.winner && !Object.keys(late.arrived_ms).length) {
      for (const name of late.absent) {
        const player = st.players.find((p) => p.name === name);
        if (player) item.append(" ", button(t("desk.arrive", { name: name }), () => act("POST", "/late/arrive", { player: player.id })));
      }
    }
    list.append(item);
  }
  out.append(list);
  return out;
}

/**
 * @param {DeskState} st
 * @param {Act} act
 * @returns {HTMLElement}
 */
function sheetSection(st, act) {
  const out = h("section", { id: "desk-sheets" }, h("h3", {}, t("desk.sheets")));
  out.append(h("p", {}, h("a", { href: "/api/tournaments/" + st.tournament_id + "/sheet-pins",
    target: "_blank", rel: "noopener", id: "desk-sheet-pins" }, t("desk.sheet_pins"))));
  const list = h("ul", {});
  for (const s of st.sheets || []) {
    const table = s.table == null ? "–" : String(s.table);
    if (s.flagged) {
      // the trailing player's sheet made the result: the director may correct it
      const who = s.trailing === "A" ? (s.a || "A") : (s.b || "B");
      list.append(h("li", { class: "err", "data-flagged": String(s.match) },
        t("desk.trailing", { table: table, game: String(s.game), who: who, w: s.winner || "" })));
      continue;
    }
    if (s.winner) continue;
    if (s.outcome === "director" && s.why) {
      list.append(h("li", { class: s.mismatch ? "err" : "" }, t("desk.director", { table: table, why: s.why })));
    }
    if (s.mismatch) {
      list.append(h("li", { class: "err" }, t("desk.mismatch", { table: table, a: s.a || "", wa: s.sheets.A.winner, b: s.b || "", wb: s.sheets.B.winner })));
    } else if (s.presumption) {
      list.append(presumption(s, table));
    } else {
      for (const [who, sheet] of Object.entries(s.sheets)) {
        list.append(h("li", {}, t("desk.pending", { table: table, who: who === "A" ? (s.a || who) : (s.b || who), w: sheet.winner })));
      }
    }
  }
  out.append(list);
  const by = h("select", { id: "desk-sheet-by" }, h("option", { value: "director" }, t("desk.sheet_by.director")),
    h("option", { value: "A" }, "A"), h("option", { value: "B" }, "B"));
  out.append(h("div", { class: "form" },
    h("label", { for: "desk-sheet-table" }, t("desk.sheet_table")), h("input", { id: "desk-sheet-table", type: "number", min: "1" }),
    h("label", { for: "desk-sheet-by" }, t("desk.sheet_by")), by,
    h("label", { for: "desk-sheet-winner" }, t("desk.sheet_winner")), h("input", { id: "desk-sheet-winner", maxlength: "100" }),
    h("label", { for: "desk-sheet-score" }, t("desk.sheet_score")), h("input", { id: "desk-sheet-score", maxlength: "9" }),
    h("label", { for: "desk-sheet-games" }, t("desk.sheet_games")), h("input", { id: "desk-sheet-games", maxlength: "1200" }),
    h("span", {}),
    button(t("desk.sheet_send"), () => {
      const number = Number(value("desk-sheet-table"));
      const m = st.matches.find((x) => x.table === number && !x.winner);
      if (!m) return;
      /** @type {Object<string, any>} */
      const body = { event: m.event, round: m.round, match: m.match,
        by: /** @type {HTMLSelectElement} */ (by).value, winner: value("desk-sheet-winner") };
      const score = value("desk-sheet-score").split("-").map((x) => Number(x.trim()));
      if (score.length === 2 && score.every((x) => Number.isInteger(x))) body.score = score;
      const games = value("desk-sheet-games").split(/[\s,;]+/).filter(Boolean)
        .map((x) => x.split(/[-–:]/).map((y) => Number(y.trim())));
      if (games.length) body.games = games;
      act("POST", "/sheets", body);
    })));
  return out;
}

/**
 * One player's sheet in, the other's missing: the desk says so with the rule
 * book's words and offers the kept sheet's result; the director confirms.
 * @param {Sheet} s
 * @param {string} table
 * @returns {HTMLElement}
 */
function presumption(s, table) {
  const p = /** @type {Presumption} */ (s.presumption);
  const name = (/** @type {string} */ side) => side === "A" ? (s.a || side) : (s.b || side);
  const words = { table: table, who: name(p.by), missing: name(p.missing), w: p.winner,
    score: p.score ? " " + p.score.join("–") : "" };
  const line = h("li", { "data-presume": String(s.match) }, t("desk.presume", words));
  if (p.via === "table") line.append(" (" + t("desk.presume_unconfirmed") + ")");
  line.append(" ", button(t("desk.presume_ok", words), confirmed(t("cf.presume", words), "POST", "/sheets/presume",
    { event: s.event, round: s.round, match: s.match, by: p.by })));
  return line;
}

/**
 * @param {DeskState} st
 * @param {Act} act
 * @returns {HTMLElement}
 */
function committeeSection(st, act) {
  const name = (/** @type {number} */ id) => (st.players.find((p) => p.id === id) || { name: "#" + id }).name;
  const out = h("section", { id: "desk-committee" }, h("h3", {}, t("desk.committee")));
  out.append(h("p", {}, (st.committee || []).map((m) => m.name).join(", ") || "–"));
  out.append(h("div", { class: "form" },
    h("label", { for: "desk-members" }, t("desk.members")), h("input", { id: "desk-members", maxlength: "60" }),
    h("span", {}),
    button(t("desk.set_committee"), () => act("POST", "/committee",
      { members: value("desk-members").split(",").filter((x) => x.trim()).map(Number) }))));
  out.append(h("h3", {}, t("desk.appeals")));
  const list = h("ul", {});
  for (const a of st.appeals || []) {
    const m = st.matches.find((x) => x.event === a.event && x.round === a.round && x.match === a.match);
    let line = t("desk.appeal_n", { n: a.appeal, table: m ? m.table : "–", ruling: a.ruling, panel: a.panel.map(name).join(", ") });
    if (a.decision) line += " · " + t("desk.decision." + a.decision);
    list.append(h("li", { "data-appeal": String(a.appeal) }, line));
  }
  out.append(list);
  const ids = (/** @type {string} */ id) => value(id).split(",").filter((x) => x.trim()).map(Number);
  out.append(h("div", { class: "form" },
    h("label", { for: "desk-appeal-table" }, t("desk.appeal_table")), h("input", { id: "desk-appeal-table", type: "number", min: "1" }),
    h("label", { for: "desk-appeal-by" }, t("desk.appeal_by")), h("input", { id: "desk-appeal-by", type: "number", min: "1" }),
    h("label", { for: "desk-appeal-ruling" }, t("desk.appeal_ruling")), h("input", { id: "desk-appeal-ruling", maxlength: "500" }),
    h("label", { for: "desk-appeal-subs" }, t("desk.appeal_subs")), h("input", { id: "desk-appeal-subs", maxlength: "60" }),
    h("span", {}),
    button(t("desk.appeal_send"), () => {
      const number = Number(value("desk-appeal-table"));
      const m = st.matches.filter((x) => x.table === number).pop();
      if (!m) return;
      act("POST", "/appeals", { event: m.event, round: m.round, match: m.match, by: Number(value("desk-appeal-by")),
        ruling: value("desk-appeal-ruling"), substitutes: ids("desk-appeal-subs") });
    })));
  const open = (st.appeals || []).filter((a) => !a.decision);
  if (open.length) {
    const pick = h("select", { id: "desk-decide-n", "aria-label": t("desk.appeals") },
      ...open.map((a) => h("option", { value: String(a.appeal) }, String(a.appeal))));
    out.append(h("div", { class: "form" },
      h("label", { for: "desk-decide-n" }, t("desk.appeals")), pick,
      h("label", { for: "desk-votes" }, t("desk.votes")), h("input", { id: "desk-votes", maxlength: "200" }),
      h("label", { for: "desk-hearing" }, t("desk.hearing")), h("input", { id: "desk-hearing", maxlength: "1000" }),
      h("span", {}),
      button(t("desk.decide"), () => {
        /** @type {Object<string, string>} */
        const votes = {};
        for (const pair of value("desk-votes").split(",")) {
          const [id, vote] = pair.split(":").map((x) => x.trim());
          if (id) votes[id] = vote;
        }
        /** @type {Object<string, any>} */
        const body = { votes: votes };
        if (value("desk-hearing")) body.hearing = value("desk-hearing");
        act("POST", "/appeals/" + /** @type {HTMLSelectElement} */ (pick).value + "/decision", body);
      })));
  }
  return out;
}

/**
 * @param {DeskState} st
 * @returns {HTMLElement}
 */
function exportSection(st) {
  const base = "/api/tournaments/" + st.tournament_id;
  // no key in these addresses: the director's session cookie opens them
  const link = (/** @type {string} */ href, /** @type {string} */ text, /** @type {string=} */ more) =>
    h("a", { href: href + (more || ""), target: "_blank", rel: "noopener" }, text);
  return h("section", { id: "desk-exports" }, h("h3", {}, t("desk.exports")),
    h("p", {}, link(base + "/draw.csv", "draw.csv"), " · ", link(base + "/draw.json", "draw.json"), " · ",
      // the printed sheets in the director's language
      link(base + "/draw/main.html", t("desk.print", { event: t("room.main") }), "?lang=" + I18N.lang), " · ",
      link(base + "/draw/consolation.html", t("desk.print", { event: t("room.consolation") }), "?lang=" + I18N.lang),
      ...(st.last_chance ? [" · ", link(base + "/draw/last_chance.html",
        t("desk.print", { event: t("room.last_chance") }), "?lang=" + I18N.lang)] : [])));
}

/** A clash's match in the director's language (the server's label, "Main
 * R1 match 2"); a label of another shape is shown as it is.
 * @param {string} label @returns {string} */
export function clashMatch(label) {
  const m = /^(Main|Consolation|Last Chance|Losers|Final) R(\d+) match (\d+)$/.exec(label);
  if (!m) return label;
  return FL.t("fl.clash_match", { event: FL.t("fl.event." + m[1].toLowerCase().replace(" ", "_")), n: m[2], m: m[3] });
}

/**
 * A table's final result that disagrees with the result the tournament holds
 * (a hand result that won the race with the clock's): an alert naming both,
 * until the director dismisses it.  Null when there is none.
 * @param {{clashes?: Clash[]}} st
 * @param {Act} act
 * @returns {HTMLElement|null}
 */
export function clashSection(st, act) {
  const open = (st.clashes || []).filter((c) => !c.dismissed);
  if (!open.length) return null;
  const list = h("ul", {});
  for (const c of open) {
    const held = c.held.score ? c.held.winner + " " + c.held.score.join("–") : c.held.winner;
    list.append(h("li", { class: "err", "data-clash": String(c.clash) },
      t("desk.clash", { table: String(c.table), match: clashMatch(c.match), clock: c.clock.winner,
        score: c.clock.score.join("–"), held: held, source: FL.t("fl.source." + c.held.source) }), " ",
      button(t("desk.dismiss"), () => act("POST", "/clashes/" + c.clash + "/dismiss", {}))));
  }
  return h("section", { id: "desk-clashes" }, h("h3", {}, t("desk.clashes")), list);
}

/**
 * The desk's sections, after the draw.
 * @param {DeskState} st
 * @param {Act} act
 * @returns {HTMLElement[]}
 */
export function deskSections(st, act) {
  return [lateSection(st, act), sheetSection(st, act), committeeSection(st, act), exportSection(st)];
}

