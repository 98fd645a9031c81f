/* bgclock dashboard: the Swing and couples screen (issue 13).
 *
 * Creates a tournament's Swing (players, starting VP, CPP schedule, rule
 * book, clock tables and a fixed reserve) and pairs its rounds; each game's
 * table link and the buttons to enter a result by hand (a result from a
 * table's clock comes in by itself).  Creates the couples event and starts
 * each encounter's phases at tables.  Shows the VP table, the CPP now and
 * next, who is all-in, the VP chart and the couples standings
 * (contests/view/parts.js).  A section of director.html opened by its header's
 * button; re-reads the state every few seconds while open and unfocused.  This
 * module is the entry: the render and the toggle; the state (state.js),
 * the actions (actions.js) and the views (view/) sit beside it. */
import { api } from "../kit/api.js";
import { button, h } from "../kit/dom.js";
import { mountScreen, tournamentHead } from "../kit/screen.js";
import { load } from "./actions.js";
import { root, screen, ui } from "./state.js";
import { i18n } from "./strings.js";
import { couplesSection } from "./view/couples.js";
import { swingSection } from "./view/swing.js";

const t = i18n().t;
const REFRESH_MS = 2500;

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "con-pick", title: t("con.title"), label: t("con.pick") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status" }, screen.message);
  node.replaceChildren(head, msg);
  if (screen.tournament == null) { node.append(h("p", {}, t("con.none"))); return; }
  if (!screen.state) return;
  const players = h("p", { class: "con-players" }, screen.state.players.filter((p) => !p.withdrawn)
    .map((p) => p.id + " " + p.name).join(" · "));
  for (const x of screen.notReady) {
    // a command reached the table meanwhile: its next match, once the director says so
    node.append(h("p", { class: "msg err" }, t("con.not_ready", { n: x.table, m: x.message }), " ",
      button(t("con.renew", { n: x.table }), () => {
        api("POST", "/api/tables/" + x.table_id + "/next-match", x.spec).then(() => {
          screen.notReady = screen.notReady.filter((y) => y !== x);
          screen.message = t("con.done");
          screen.error = false;
          render();
        }).catch((e) => { screen.message = String(e.message); screen.error = true; render(); });
      })));
  }
  node.append(players, swingSection(), couplesSection());
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-contests", openText: () => t("con.open"),
  label: () => t("con.title"), refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

ui.render = render;

export { load, render, screen, toggle };
