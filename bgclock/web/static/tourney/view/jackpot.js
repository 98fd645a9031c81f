// @ts-check
/* bgclock dashboard, the tournament screen: jackpots, re-entries and a
 * double elimination's brackets (issue 35 §2, §3).  The settings' jackpot
 * (size, match length, room) and re-entry deadline, the re-entry button of
 * a player knocked out, and the losers' bracket and final as brackets the
 * draw section lists like the consolation. */
import { button, h, selectEl } from "../../kit/dom.js";
import { confirmed } from "../actions.js";
import { value } from "../state.js";
import { i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").Bracket} Bracket
 * @typedef {{losers: Bracket["rounds"], final: Bracket["rounds"], champion: (string|null)}} DoubleState
 */

/**
 * The settings' jackpot and re-entry fields (before the draw).
 * @param {Object<string, any>} settings
 * @returns {HTMLElement[]}
 */
export function jackpotFields(settings) {
  const jp = settings.jackpot || null;
  const size = selectEl({ id: "trn-jackpot-size" }, ["", "4", "8"].map((n) => h("option",
    /** @type {Object<string, string>} */ (Object.assign({ value: n },
      String(jp ? jp.size : "") === n ? { selected: "" } : {})), n ? t("jp.size_n", { n: n }) : t("jp.none"))));
  const until = settings.reentry_until_ms;
  return [
    h("label", { for: "trn-jackpot-size" }, t("jp.jackpot")), size,
    h("label", { for: "trn-jackpot-length" }, t("jp.length")),
    h("input", { id: "trn-jackpot-length", type: "number", min: "1", max: "64",
      value: jp ? String(jp.length) : "" }),
    h("label", { for: "trn-jackpot-room" }, t("jp.room")),
    h("input", { id: "trn-jackpot-room", maxlength: "60", value: jp && jp.room ? jp.room : "" }),
    h("label", { for: "trn-reentry-until" }, t("jp.reentry_until")),
    h("input", { id: "trn-reentry-until", type: "datetime-local",
      value: until == null ? "" : localTime(until) }),
  ];
}

/**
 * An instant as a datetime-local input's value (the browser's time zone).
 * @param {number} ms @returns {string}
 */
function localTime(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

/**
 * The jackpot's and re-entries' part of the settings' body.
 * @returns {Object<string, any>}
 */
export function jackpotBody() {
  /** @type {Object<string, any>} */
  const out = {};
  const size = value("trn-jackpot-size");
  if (size) {
    /** @type {Object<string, any>} */
    const jp = { size: Number(size), length: Number(value("trn-jackpot-length") || "0") };
    if (value("trn-jackpot-room").trim()) jp.room = value("trn-jackpot-room").trim();
    out.jackpot = jp;
    out.late_slots = 0;
  }
  const until = value("trn-reentry-until");
  out.reentry_until_ms = until ? new Date(until).getTime() : null;
  return out;
}

/**
 * A player's re-entry button: shown from the draw while the director's
 * deadline is set (the server says why when it refuses).
 * @param {{settings: Object<string, any>, drawn: boolean}} st
 * @param {{id: number, name: string}} p
 * @returns {HTMLElement|null}
 */
export function reenterButton(st, p) {
  if (!st.drawn || st.settings.reentry_until_ms == null) return null;
  return button(t("jp.reenter"), confirmed(t("jp.cf_reenter", { name: p.name }), "POST",
    "/players/" + p.id + "/reenter"), { "data-act": "reenter" });
}

/**
 * A double elimination's losers' bracket and final, as the draw lists brackets.
 * @param {{double?: (DoubleState|null)}} st
 * @returns {[string, (Bracket|null)][]}
 */
export function doubleBrackets(st) {
  const d = st.double;
  if (!d) return [];
  return [["losers", { size: 0, rounds: d.losers }], ["final", d.final.length ? { size: 0, rounds: d.final } : null]];
}
