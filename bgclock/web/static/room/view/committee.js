// @ts-check
/* bgclock room display: the ruling committee and its latest appeals. */
import { h } from "../../kit/dom.js";
import { i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").Room} Room
 * @typedef {import("../state.js").Bracket} Bracket
 */

/** @param {Room} room */
export function renderCommittee(room) {
  const members = document.getElementById("room-committee");
  if (members) members.textContent = room.committee.map((m) => m.name).join(" · ") || "–";
  const list = document.getElementById("room-appeals");
  if (!list) return;
  const names = new Map(room.committee.map((m) => [m.id, m.name]));
  list.replaceChildren(...room.appeals.slice(-6).map((a) => {
    const m = room.matches.find((x) => x.event === a.event && x.round === a.round && x.match === a.match);
    const decision = a.decision ? t("roomx." + a.decision) : t("roomx.pending");
    const panel = a.panel.map((p) => names.get(p) || "#" + p).join(", ");
    return h("li", {}, h("strong", {}, "#" + a.appeal + " · " + t("room.table") + " " + (m ? m.table : "–")), " " + a.ruling + " — " + decision
      + " (" + t("roomx.panel") + ": " + panel + ")");
  }));
}

