/* bgclock: Swing and couples on the room display (issue 13, read-only).
 *
 * Reads /api/tournaments/{id}/events.json (the room token or the director's
 * key) every two seconds: the VP table, the CPP now and next, who is all-in,
 * the VP chart and the couples standings with each encounter (contests/view/parts.js).
 * Its sections stay hidden while the tournament has neither event. */
import { newestOnly } from "../../kit/api.js";
import { credential, tournamentId } from "../state.js";
import { i18n } from "../../contests/strings.js";
import { encounterView, standingsTable, swingGames, swingHead, vpChart, vpTable } from "../../contests/view/parts.js";

const I18N = i18n();
const t = I18N.t;
const POLL_MS = 2000;

/** @type {{swing: (import("../../contests/view/parts.js").SwingState|null),
 *   couples: (import("../../contests/view/parts.js").CouplesState|null)}|null} */
let events = null;

/** The reads: only the newest one's answer is shown (a read is asked
 * every two seconds, so a slow answer can come after a later one's). */
const reads = newestOnly();

async function poll() {
  const q = credential();
  const newest = reads();
  try {
    const r = await fetch("/api/tournaments/" + tournamentId + "/events.json?" + q);
    const got = r.ok ? await r.json() : null;
    if (!newest()) return;
    if (got) events = got;
  } catch (e) { /* main.js says the connection is lost */ }
  render();
}

function render() {
  const swing = document.getElementById("room-swing");
  const couples = document.getElementById("room-couples");
  if (!swing || !couples || !events) return;
  const sw = events.swing, cp = events.couples;
  swing.hidden = !sw;
  if (sw) {
    const body = /** @type {HTMLElement} */ (swing.querySelector(".body"));
    const grid = document.createElement("div");
    grid.className = "swing-grid";
    grid.append(vpTable(sw, t), vpChart(sw, t));
    body.replaceChildren(swingHead(sw, t), ...(sw.under_way ? [swingGames(sw, t)] : []), grid);
  }
  couples.hidden = !cp;
  if (cp) {
    const body = /** @type {HTMLElement} */ (couples.querySelector(".body"));
    body.replaceChildren(standingsTable(cp, t), ...cp.encounters.filter((e) => e.matches.some((m) => m.table != null && !m.winner) || e.winner == null)
      .map((e) => encounterView(e, t)));
  }
}

/** The headings' words (main.js applied I18N before these strings were merged). */
function applyStrings() {
  for (const id of ["room-swing", "room-couples"]) {
    const node = document.getElementById(id);
    if (node) I18N.apply(node);
  }
  render();
}

const lang = document.getElementById("btn-lang");
if (lang) lang.addEventListener("click", () => setTimeout(applyStrings, 0));
applyStrings();
poll();
setInterval(poll, POLL_MS);
