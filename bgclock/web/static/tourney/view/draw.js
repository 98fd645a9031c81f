// @ts-check
/* bgclock dashboard, the tournament screen: the draw (with the director's seed), the
 * rounds started at tables, and every match's result entered by hand or
 * corrected, with its undo. */
import { button, h } from "../../kit/dom.js";
import { act, confirmed } from "../actions.js";
import { screen, ui, value } from "../state.js";
import { flowI18n } from "../flow-strings.js";
import { i18n } from "../strings.js";
import { matchButtons } from "./desk.js";
import { unpaidWarning } from "./money.js";
import { doubleBrackets } from "./jackpot.js";
import { pairButton } from "./weekly.js";

/**
 * @typedef {import("../state.js").TourneyState} TourneyState
 * @typedef {import("../state.js").Bracket} Bracket
 * @typedef {import("../state.js").BracketMatch} BracketMatch
 */

const I18N = i18n();
const t = I18N.t;
const fl = flowI18n().t;

/** @returns {HTMLElement} */
export function drawSection() {
  const st = /** @type {TourneyState} */ (screen.state);
  const out = h("section", {}, h("h3", {}, t("trn.rounds")));
  if (!st.drawn) {
    out.append(button(t("trn.draw"), () => {
      const typed = value("trn-seed").trim();
      const n = st.players.filter((p) => p.checked_in && !p.withdrawn).length;
      // who has not paid yet, named before the draw (issue 36)
      const unpaid = unpaidWarning(/** @type {any} */ (st).money);
      const text = t(typed === "" ? "cf.draw_random" : "cf.draw_seed", { n: n, seed: typed }) + (unpaid ? " " + unpaid : "");
      // no seed typed: the server draws one
      confirmed(text, "POST", "/draw", typed === "" ? {} : { seed: Number(typed) })();
    }));
    return out;
  }
  out.append(h("p", {}, t("trn.drawn", { seed: st.settings.seed })));
  if (st.main && st.main.late_open) out.append(...closeLate(st));
  const label = (/** @type {string} */ event) => weeklyLabel(st, event);
  const weekly = /** @type {any} */ (st).weekly;
  if (weekly && st.main) {  // a weekly format: its next round is paired as it starts
    const pair = pairButton(weekly, st.main);
    if (pair) out.append(pair);
  }
  const brackets = [["main", st.main], ["consolation", st.consolation], ["last_chance", st.last_chance || null],
    ...doubleBrackets(/** @type {any} */ (st))];
  for (const [event, bracket] of /** @type {[string, Bracket|null][]} */ (brackets)) {
    if (!bracket) continue;
    out.append(h("h4", {}, label(event)));
    bracket.rounds.forEach((matches, r) => {
      const ready = matches.some((m, i) => m.a && m.b && !m.winner
        && !st.matches.some((x) => x.event === event && x.round === r && x.match === i));
      const list = h("ol", { start: "1" });
      matches.forEach((m, i) => list.append(matchItem(event, r, i, m)));
      out.append(h("h5", {}, t("room.round", { n: r + 1 })));
      if (ready) {
        out.append(button(t("trn.start_round", { event: label(event), n: r + 1 }),
          () => act("POST", "/rounds", { event: event, round: r })));
      }
      out.append(list);
    });
    if (event === "main" && !st.consolation && !weekly && st.main) {
      // where the director waits for the consolation: what draws it
      out.append(h("h4", {}, label("consolation")),
        h("p", { id: "trn-consolation-wait" }, fl(consolationWait(st.main))));
    }
  }
  return out;
}

/**
 * What the Progressive Consolation waits for, while it is not drawn: it is
 * drawn once late arrivals are closed and every player's first played match
 * is decided (after a bye, the second round's).
 * @param {Bracket} main
 * @returns {string} the key of the line that says so
 */
function consolationWait(main) {
  if (!main.late_open) return "fl.consolation_byes";
  const first = main.rounds[0] || [];
  if (!first.every((m) => !(m.a && m.b) || !!m.winner)) return "fl.consolation_trigger";
  // a slot left empty is a bye once the late arrivals are closed
  return first.every((m) => m.a && m.b) ? "fl.consolation_ready" : "fl.consolation_ready_byes";
}

/**
 * The late arrivals' closing: what it does (it cannot be undone: empty
 * slots become byes, the consolation is drawn), confirmed first.
 * @param {TourneyState} st
 * @returns {HTMLElement[]}
 */
function closeLate(st) {
  const empty = st.main ? (st.main.late_slots || []).filter((pos) => {
    const m = /** @type {Bracket} */ (st.main).rounds[0][pos >> 1];
    return m && !(pos % 2 ? m.b : m.a);
  }).length : 0;
  return [button(t("trn.close_late"), confirmed(fl(empty ? "fl.cf_close_late" : "fl.cf_close_late_none", { n: empty }), "POST", "/late/close"),
    { id: "trn-close-late" })];
}

/**
 * An event's name: a weekly format's for its rounds.
 * @param {TourneyState} st @param {string} event
 * @returns {string}
 */
function weeklyLabel(st, event) {
  const weekly = /** @type {any} */ (st).weekly;
  if (event === "main" && /** @type {any} */ (st).double) return t("jp.winners");
  return event === "main" && weekly ? t("fmt." + weekly.format) : t("room." + event);
}

/**
 * An undo's body: the match, and what the director sees undone (its winner,
 * and how many corrections it has, where the state shows its result), so
 * that an undo another dashboard made first is not undone again one step down.
 * @param {string} event @param {number} r @param {number} i @param {string|null} winner
 * @returns {Object<string, any>}
 */
export function revertBody(event, r, i, winner) {
  const result = resultOf(event, r, i);
  return { event: event, round: r, match: i, winner: winner,
    ...(result ? { corrections: result.corrections || 0 } : {}) };
}

/**
 * Whether the server would undo a match's result now, by the rule it applies
 * (``_revert``): a correction can be walked back; a result with none only
 * when it was entered by hand (a clock's, a withdrawal's or a
 * disqualification's result is corrected instead, never undone).
 * @param {Object<string, any>|null} result the state's result of the match
 * @returns {boolean}
 */
export function undoable(result) {
  return !!result && ((result.corrections || 0) > 0 || result.source === "hand");
}

/**
 * How a match was decided (the state's `results`), at a table or not; null: undecided.
 * @param {string} event @param {number} r @param {number} i
 * @returns {Object<string, any>|null}
 */
function resultOf(event, r, i) {
  const st = /** @type {TourneyState} */ (screen.state);
  return (st.results || []).find((x) => x.event === event && x.round === r && x.match === i) || null;
}

/**
 * One match: its players, table, result and the director's buttons.
 * @param {string} event
 * @param {number} r
 * @param {number} i
 * @param {BracketMatch} m
 * @returns {HTMLElement}
 */
function matchItem(event, r, i, m) {
  const st = /** @type {TourneyState} */ (screen.state);
  const at = st.matches.find((x) => x.event === event && x.round === r && x.match === i);
  const lateOpen = (/** @type {number} */ pos) => event === "main" && r === 0 && !!st.main && !!st.main.late_open
    && (st.main.late_slots || []).includes(pos);
  const name = (/** @type {string|null} */ x, /** @type {number} */ pos) => x
    || (lateOpen(pos) ? t("st.late_slot") : r === 0 ? t("trn.bye") : t("trn.tbd"));
  const item = h("li", {}, name(m.a, 2 * i) + " – " + name(m.b, 2 * i + 1));
  if (at) item.append(" · " + t("trn.table", { n: at.table }) + " (" + t("trn.clock." + at.clock) + ")");
  const waits = /** @type {any} */ (st).waiting || [];
  if (!at && waits.some((/** @type {any} */ w) => w.event === event && w.round === r && w.match === i)) {
    item.append(" · " + t("fl.waits"));
  }
  if (m.winner) {
    const result = resultOf(event, r, i);
    item.append(" · ★ " + m.winner + (result ? " (" + t("trn.source." + result.source) + (result.corrected ? ", " + t("trn.corrected") : "") + ")" : ""));
  }
  for (const b of matchButtons(/** @type {any} */ (st), event, r, i, m, act)) item.append(" ", b);
  if (m.a && m.b) {
    const pair = m.a + " – " + m.b;
    for (const who of [m.a, m.b]) {
      if (m.winner === who) continue;
      if (!m.winner) {
        item.append(" ", button(t("trn.enter", { name: who }), confirmed(
          t("cf.result", { name: who, match: pair }), "POST", "/results", { event: event, round: r, match: i, winner: who })));
      } else {
        // a correction names its winner (the button) and needs a reason
        item.append(" ", button(t("trn.correct", { name: who }), () => {
          const reason = value("trn-reason").trim();
          if (!reason) {
            screen.message = t("trn.reason_needed");
            screen.error = true;
            ui.render();
            return;
          }
          confirmed(t("cf.correct", { name: who, was: String(m.winner), match: pair, reason: reason }),
            "POST", "/corrections", { event: event, round: r, match: i, winner: who, reason: reason })();
        }));
      }
    }
    const result = resultOf(event, r, i);
    if (m.winner && (!result || undoable(result))) {
      item.append(" ", button(t("trn.undo_result"), confirmed(
        t(result && (result.corrections || 0) > 0 ? "cf.revert_correction" : "cf.revert", { name: m.winner, match: pair }),
        "POST", "/results/revert", revertBody(event, r, i, m.winner))));
    }
  }
  return item;
}

