// @ts-check
/* bgclock dashboard, the Swing and couples screen: the couples: the event created,
 * each encounter's phases started at tables, the standings. */
import { button, h } from "../../kit/dom.js";
import { act } from "../actions.js";
import { screen, value } from "../state.js";
import { i18n } from "../strings.js";
import { encounterView, standingsTable } from "./parts.js";
import { tableLink } from "./swing.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").ContestState} ContestState
 * @typedef {import("./parts.js").CouplesMatch} CouplesMatch
 */

/** @returns {HTMLElement} */
export function couplesSection() {
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

