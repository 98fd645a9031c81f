// @ts-check
/* bgclock dashboard: the tournament screen (issue 12).
 *
 * Players (register, CSV import, check-in, withdraw, late arrival), the
 * Main's settings, the draw (with the director's seed), rounds started at
 * tables, and every match's result (entered by hand, or from its clock) with
 * corrections.  Everything goes through /api/tournaments/{id}/... with the
 * director's key; the screen re-reads the tournament's state after each
 * action and every few seconds while it is open (a result from a clock comes
 * in by itself).  The screen is a section of director.html, opened by its
 * header's button.  This module is the entry: the render and the toggle;
 * the state (state.js), the actions (actions.js) and the views (view/) sit
 * beside it. */
import { h } from "../kit/dom.js";
import { mountScreen, tournamentHead } from "../kit/screen.js";
import { act, confirmed, load } from "./actions.js";
import { root, screen, ui } from "./state.js";
import { i18n } from "./strings.js";
import { breaksSection } from "./view/breaks.js";
import { clashSection, deskSections } from "./view/desk.js";
import { drawSection } from "./view/draw.js";
import { flightSection } from "./view/flight.js";
import { historySection } from "./view/history.js";
import { moneySection } from "./view/money.js";
import { playersSection, settingsForm } from "./view/players.js";
import { standingsSection } from "./view/standings.js";
import { fieldSection } from "./view/weekly.js";

const t = i18n().t;
const REFRESH_MS = 3000;

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "trn-pick", title: t("trn.title"), label: t("trn.pick") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status" }, screen.message);
  node.replaceChildren(head, msg);
  if (screen.tournament == null) { node.append(h("p", {}, t("trn.none"))); return; }
  if (!screen.state) return;
  const room = h("p", {}, t("trn.room") + ": ", h("a", { href: screen.state.room_url, target: "_blank", rel: "noopener" }, screen.state.room_url));
  const reason = h("div", { class: "form" }, h("label", { for: "trn-reason" }, t("trn.reason")),
    h("input", { id: "trn-reason", maxlength: "200" }));
  const clashes = clashSection(/** @type {any} */ (screen.state), act);  // alerts first
  if (clashes) node.append(clashes);
  // the breaks at matches without a clock, their alerts with the others
  const breaks = screen.state.drawn ? breaksSection(/** @type {any} */ (screen.state), screen.breaks) : null;
  if (breaks) node.append(breaks);
  node.append(room, flightSection(/** @type {any} */ (screen.state), screen.flight, act),
    settingsForm(), playersSection());
  const money = moneySection(/** @type {any} */ (screen.state), act, confirmed);  // issue 36
  if (money) node.append(money);
  node.append(drawSection(), reason);
  const weekly = /** @type {any} */ (screen.state).weekly;
  if (weekly) node.append(fieldSection(weekly));
  if (screen.state.drawn) node.append(...deskSections(/** @type {any} */ (screen.state), act));
  if (screen.state.drawn) node.append(standingsSection(/** @type {any} */ (screen.state), act));
  node.append(historySection());
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-tourney", openText: () => t("trn.open"),
  label: () => t("trn.section"), refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

ui.render = render;

export { load, render, screen, toggle };
