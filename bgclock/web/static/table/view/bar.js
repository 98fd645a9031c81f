// @ts-check
/* bgclock table page: the bar between the halves: the score, the cube, the
 * Crawford and frozen-cube badges, the game, the phase (with a stop's
 * reason), and the tools that the phase allows. */
import { el } from "../../kit/dom.js";
import { t } from "../../kit/i18n.js";
import { app, other } from "../state.js";
import { $ } from "./screen.js";

/** @typedef {import("../../kit/types.js").Side} Side */
/** @typedef {import("../../kit/types.js").WireState} WireState */

/** The bar for `st`. @param {WireState} st @param {{A: string, B: string}} nm */
export function renderBar(st, nm) {
  // names on wide screens, the side letters on phones (style.css)
  /** @param {Side} side */
  const who = (side) => [el("span", { class: "nm", text: nm[side] }), el("span", { class: "tg", text: side })];
  $("score").replaceChildren(...who("A"), " " + st.score[0] + " – " + st.score[1] + " ", ...who("B"),
    " · " + t("bar.to", { n: st.length }));
  $("cube").replaceChildren(t("bar.cube") + " " + st.cube.value + " · ",
    ...(st.cube.owner ? who(st.cube.owner) : [t("bar.centered")]));
  $("crawford").hidden = !st.crawford;
  $("frozen").hidden = !st.cube_frozen;
  $("game").textContent = st.game > 0 ? t("bar.game", { n: st.game }) : "";
  let ph = t("phase." + st.phase);
  if (st.stopped_reason && st.phase !== "break" && st.phase !== "offer" && !(st.phase === "dispute" && st.stopped_reason === "dispute")) {
    ph += " · " + t("reason." + st.stopped_reason);
  }
  // a stop's reason chosen after the tap: here, or (a summons) on any device
  const chosen = app.stopNote || (app.summoned && app.summoned.seq === app.seq ? { reason: app.summoned.why, side: app.summoned.side } : null);
  if (st.phase === "stopped" && st.stopped_reason === "other" && chosen) {
    ph = t("phase.stopped") + " · " + (chosen.reason === "premature" ? t("stop.premature", { name: nm[other(chosen.side)] })
      : t("reason." + chosen.reason));
  }
  if (st.phase === "playing" && st.game === 0) ph = t("late");
  $("phase").textContent = ph;
  $("phase").dataset.phase = st.phase;
  $("btn-stop").hidden = st.phase !== "playing" || app.closed;
  $("btn-director").hidden = st.phase !== "playing" || app.closed;
  $("btn-resume").hidden = !(st.phase === "stopped" || st.phase === "break") || app.closed;
}
