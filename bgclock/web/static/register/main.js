// @ts-check
/* bgclock dashboard: the players' register (issue 23 §4).
 *
 * Search the register (a name's part or a federation id, paged, by name or
 * by rating), add and edit players, import and export it as CSV, open the
 * rating list (printable A4 in the director's language, or CSV) and a
 * player's history.  A found player is registered in the chosen tournament
 * linked to the entry (register_id); closing the tournament (with a
 * confirmation) rates its matches once.  Everything goes through
 * /api/register... with the director's key.  The screen is a section of
 * director.html, opened by its header's button.  This module is the entry:
 * the render and the toggle; the state (state.js), the requests
 * (actions.js) and the sections (view/sections.js) sit beside it. */
import { mountScreen, tournamentHead } from "../kit/screen.js";
import { h } from "../kit/dom.js";
import { load } from "./actions.js";
import { root, screen, ui } from "./state.js";
import { i18n } from "./strings.js";
import { closeSection, editSection, filesSection, historySection, searchSection } from "./view/sections.js";

const t = i18n().t;
const REFRESH_MS = 15000;

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "reg-pick", title: t("reg.title"), label: t("reg.tournament") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status", id: "reg-msg" }, screen.message);
  node.replaceChildren(head, msg, searchSection());
  const hist = historySection();
  if (hist) node.append(hist);
  node.append(editSection(), filesSection());
  const close = closeSection();
  if (close) node.append(close);
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-register", openText: () => t("reg.open"),
  label: () => t("reg.title"), refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

ui.render = render;

export { load, render, screen, toggle };
