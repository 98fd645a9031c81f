// @ts-check
/* bgclock dashboard, the tournament screen: a weekly format at the desk
 * (issue 35 §2, §4).  The settings' format (Swiss, More Swiss, round robin),
 * the button that pairs the next round as it starts (from the results known
 * then), the field (wins, losses, byes, opponents met, who is out, who can
 * still win) and a round's pairing explained on request. */
import { api } from "../../kit/api.js";
import { button, h, selectEl } from "../../kit/dom.js";
import { act } from "../actions.js";
import { base, screen, ui, value } from "../state.js";
import { i18n } from "../strings.js";

const I18N = i18n();
const t = I18N.t;

/**
 * @typedef {{player: string, wins: number, losses: number, byes: number, opponents: string[],
 *   out: boolean, can_still_win: boolean}} FieldRow
 * @typedef {{format: string, paired: number, over: boolean, finished: boolean,
 *   rounds_total: (number|null), losses: (number|null), field: FieldRow[],
 *   standings: {player: string, place: number, wins: number, losses: number}[]}} WeeklyState
 */

/** The reasons shown, by round (1-based), as the server explained them. */
/** @type {{round: (number|null), lines: string[]}} */
const reasons = { round: null, lines: [] };

export const FORMATS = ["knockout", "swiss", "moreswiss", "roundrobin", "double"];

/**
 * The settings' format fields (before the draw).
 * @param {Object<string, any>} settings
 * @returns {HTMLElement[]}
 */
export function formatFields(settings) {
  const pick = selectEl({ id: "trn-format" }, FORMATS.map((f) => h("option",
    /** @type {Object<string, string>} */ (Object.assign({ value: f },
      (settings.format || "knockout") === f ? { selected: "" } : {})), t("fmt." + f))));
  return [
    h("label", { for: "trn-format" }, t("fmt.format")), pick,
    h("label", { for: "trn-swiss-rounds" }, t("fmt.swiss_rounds")),
    h("input", { id: "trn-swiss-rounds", type: "number", min: "1", max: "200",
      value: settings.swiss_rounds == null ? "" : String(settings.swiss_rounds) }),
    h("label", { for: "trn-losses" }, t("fmt.losses")),
    h("input", { id: "trn-losses", type: "number", min: "1", max: "20",
      value: settings.losses == null ? "" : String(settings.losses) }),
  ];
}

/**
 * The format's part of the settings' body.
 * @returns {Object<string, any>}
 */
export function formatBody() {
  /** @type {Object<string, any>} */
  const out = { format: value("trn-format") || "knockout" };
  if (value("trn-swiss-rounds").trim() !== "") out.swiss_rounds = Number(value("trn-swiss-rounds"));
  if (value("trn-losses").trim() !== "") out.losses = Number(value("trn-losses"));
  return out;
}

/**
 * The button that pairs and starts the next round, when it can be paired.
 * @param {WeeklyState} w @param {import("../state.js").Bracket} rounds
 * @returns {HTMLElement|null}
 */
export function pairButton(w, rounds) {
  const last = rounds.rounds[rounds.rounds.length - 1];
  if (w.over || (last && last.some((m) => !m.winner))) return null;
  return button(t("fmt.pair_start", { n: w.paired + 1 }),
    () => act("POST", "/rounds", { event: "main", round: w.paired }));
}

/**
 * The field: the table of records, who is out, who can still win; a
 * round's pairing explained on request.
 * @param {WeeklyState} w
 * @returns {HTMLElement}
 */
export function fieldSection(w) {
  const out = h("section", { id: "trn-field" }, h("h3", {}, t("fmt.field", { format: t("fmt." + w.format) })));
  if (w.format === "moreswiss") out.append(h("p", {}, t("fmt.out_at", { n: w.losses || 0 })));
  if (w.format === "swiss") out.append(h("p", {}, t("fmt.rounds_of", { n: w.paired, of: w.rounds_total || 0 })));
  if (w.field.length) {
    const rows = w.field.map((r) => h("tr", { class: r.out ? "out" : "" },
      h("td", {}, r.player), h("td", {}, String(r.wins)), h("td", {}, String(r.losses)),
      h("td", {}, String(r.byes)), h("td", {}, r.opponents.join(", ")),
      h("td", {}, r.out ? t("fmt.is_out") : r.can_still_win ? t("fmt.can_win") : "–")));
    out.append(h("table", {}, h("thead", {}, h("tr", {},
      ...["fmt.player", "fmt.wins", "fmt.losses_col", "fmt.byes", "fmt.opponents", "fmt.status"]
        .map((k) => h("th", { scope: "col" }, t(k))))), h("tbody", {}, ...rows)));
  }
  const places = w.standings.map((p) => h("li", {}, t("fmt.place", { place: p.place, name: p.player, wins: p.wins, losses: p.losses })));
  out.append(h("h4", {}, t(w.finished ? "fmt.final" : "fmt.so_far")), h("ul", {}, ...places));
  for (let n = 1; n <= w.paired; n++) {
    out.append(button(t("fmt.why", { n: n }), () => explainRound(n)), " ");
  }
  if (reasons.round != null && reasons.round <= w.paired) {
    out.append(h("h4", {}, t("fmt.why_title", { n: reasons.round })),
      h("ul", { id: "trn-reasons" }, ...reasons.lines.map((x) => h("li", {}, x))));
  }
  return out;
}

/** @param {number} n the round, 1-based */
async function explainRound(n) {
  try {
    const body = await api("GET", base() + "/field?round=" + n);
    reasons.round = n;
    reasons.lines = body.reasons || [];
  } catch (e) {
    screen.message = String(/** @type {Error} */ (e).message);
    screen.error = true;
  }
  ui.render();
}
