// @ts-check
/* bgclock dashboard, the tournament screen: breaks at the matches played
 * without a clock (issue 38 §3; Italian rule book: two breaks of 10 minutes
 * each in a match of 13 points or more, else one).
 *
 * Each match being played without a clock gets a "Break" button per player
 * with a break left, the count used/allowed, the running break's time left,
 * and, once a break is past its 10 minutes, an alert offering the penalty
 * (points to the opponent; the director confirms, or waives it).  The
 * server times the breaks (GET .../breaks, read with the state); every
 * action is confirmed first (actions.js). */
import { fmtShort } from "../../kit/format.js";
import { button, h } from "../../kit/dom.js";
import { confirmed } from "../actions.js";
import { i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {{player: string, side: string, number: number, start_ms: number,
 *   end_ms: (number|null), limit_ms: number, penalty: (number|null), running: boolean,
 *   left_ms: number, over_ms: number, suggested: number, alert: boolean}} Break
 * @typedef {{event: string, round: number, match: number, table: (number|null),
 *   a: string, b: string, length: number, allowance: number, used: {A: number, B: number},
 *   clock: boolean, breaks: Break[]}} MatchBreaks
 * @typedef {{server_ms: number, breaks: MatchBreaks[]}} Breaks
 * @typedef {{players: {id: number, name: string}[]}} PlayersState
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
 * The alert of a break past its 10 minutes: the rule's words, the points
 * (the suggested ones filled in), the score now, award or waive.
 * @param {PlayersState} st
 * @param {MatchBreaks} m
 * @param {Break} b
 * @returns {HTMLElement}
 */
function penaltyAlert(st, m, b) {
  const where = { event: m.event, round: m.round, match: m.match };
  const id = ["brk", m.event, m.round, m.match, b.side, b.number].join("-");
  const player = st.players.find((p) => p.name === b.player);
  const opp = b.side === "A" ? m.b : m.a;
  const over = fmtShort(b.over_ms);
  const words = { name: b.player, k: b.number, t: over, opp: opp, table: String(m.table) };
  const send = (/** @type {number} */ points) => {
    /** @type {Object<string, any>} */
    const body = Object.assign({}, where, { player: player ? player.id : 0, number: b.number, points: points });
    const score = value(id + "-score").split("-").map((x) => Number(x.trim()));
    if (points > 0 && score.length === 2 && score.every((x) => Number.isInteger(x))) body.score = score;
    return body;
  };
  return h("div", { class: "err", role: "alert", "data-break-alert": id },
    h("p", {}, t("desk.break_over", words)),
    h("div", { class: "form" },
      h("label", { for: id + "-points" }, t("desk.break_points")),
      h("input", { id: id + "-points", type: "number", min: "0", max: String(m.length), value: String(b.suggested) }),
      h("label", { for: id + "-score" }, t("desk.break_score")),
      h("input", { id: id + "-score", maxlength: "7" })),
    h("p", {},
        button(t("desk.break_penalty"), () => {
          const points = Number(value(id + "-points"));
          if (!Number.isInteger(points) || points < 0) return;
          const body = send(points);
          const text = points === 0 ? t("cf.break_waive", words)
            : t("cf.break_penalty", Object.assign({ n: points }, words));
          confirmed(text, "POST", "/breaks/penalty", body)();
        }, { "data-break-penalty": id }), " ",
        button(t("desk.break_waive"), confirmed(t("cf.break_waive", words), "POST", "/breaks/penalty", send(0)),
          { "data-break-waive": id })));
}

/**
 * One match being played without a clock: its breaks, the buttons, the alerts.
 * @param {PlayersState} st
 * @param {MatchBreaks} m
 * @returns {HTMLElement}
 */
function matchItem(st, m) {
  const where = { event: m.event, round: m.round, match: m.match };
  const table = m.table == null ? "–" : String(m.table);
  const item = h("li", { "data-breaks": [m.event, m.round, m.match].join("-") },
    h("p", {}, t("desk.break_match", { table: table, a: m.a, b: m.b, length: m.length,
      ua: m.used.A, ub: m.used.B, n: m.allowance })));
  const running = m.breaks.find((b) => b.running);
  for (const b of m.breaks) {
    const words = { name: b.player, k: b.number, t: fmtShort(b.running ? b.left_ms : b.over_ms) };
    if (b.alert) {
      item.append(penaltyAlert(st, m, b));
    } else if (b.running) {
      item.append(h("p", { role: "timer" }, t("desk.break_left", words)));
    } else if (b.penalty != null && b.over_ms > 0) {
      item.append(h("p", {}, t("desk.break_penalised", Object.assign({}, words, { n: b.penalty }))));
    } else {
      item.append(h("p", {}, t("desk.break_done", words)));
    }
  }
  const buttons = h("p", {});
  if (running) {
    buttons.append(button(t("desk.break_end"), confirmed(t("cf.break_end", { name: running.player, table: table }),
      "POST", "/breaks/end", where), { "data-break-end": "" }));
  } else {
    for (const [side, name] of /** @type {[string, string][]} */ ([["A", m.a], ["B", m.b]])) {
      const used = side === "A" ? m.used.A : m.used.B;
      const player = st.players.find((p) => p.name === name);
      if (used >= m.allowance || !player) continue;
      buttons.append(button(t("desk.break", { name: name }),
        confirmed(t("cf.break", { name: name, k: used + 1, n: m.allowance, table: table }), "POST", "/breaks",
          Object.assign({ player: player.id }, where)), { "data-break": side }), " ");
    }
  }
  item.append(buttons);
  return item;
}

/**
 * The breaks section: every match being played without a clock.  Null
 * while the breaks have not been read (before the draw).
 * @param {PlayersState} st
 * @param {Breaks|null} breaks
 * @returns {HTMLElement|null}
 */
export function breaksSection(st, breaks) {
  if (!breaks) return null;
  const matches = breaks.breaks.filter((m) => !m.clock);
  const out = h("section", { id: "desk-breaks" }, h("h3", {}, t("desk.breaks")));
  if (!matches.length) {
    out.append(h("p", {}, t("desk.breaks_none")));
    return out;
  }
  // the alerts first: a break past its 10 minutes waits for the director
  matches.sort((x, y) => Number(y.breaks.some((b) => b.alert)) - Number(x.breaks.some((b) => b.alert)));
  out.append(h("ul", { class: "breaks" }, ...matches.map((m) => matchItem(st, m))));
  return out;
}
