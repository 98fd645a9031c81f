// @ts-check
/* bgclock room display: the matches at tables (score and both clocks,
 * counted down between two messages), the results newest first by event,
 * and the late arrivals' counts. */
import { fmtShort } from "../../kit/format.js";
import { h } from "../../kit/dom.js";
import { resultText } from "../../tourney/seats.js";
import { LATE_ROWS, TABLE_ROWS, lates, liveMatches, pageOf, results, serverNow, view } from "../state.js";
import { eventRound, hm, i18n } from "../strings.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").Room} Room
 * @typedef {import("../state.js").Bracket} Bracket
 */

/**
 * @param {Room} room
 * @param {number} page
 */
export function renderTables(room, page) {
  const body = document.querySelector("#room-tables tbody");
  if (!body) return;
  const since = performance.now() - view.at;
  const rows = pageOf(liveMatches(room), page, TABLE_ROWS).map((m) => {
    const live = m.live;
    let score = "", clock = t("room.no_clock");
    if (live) {
      score = live.score[0] + " – " + live.score[1] + " / " + live.length;
      const reserves = live.reserve_ms.map((ms, i) => (live.on_turn === "AB"[i] && live.phase === "playing" ? ms - since : ms));
      // a flag worked out while the table's timekeeper is away is no result (protocol: Provisional flags)
      clock = fmtShort(reserves[0]) + " · " + fmtShort(reserves[1]) + (live.provisional ? " · " + t("room.provisional")
        : live.phase === "match_over" ? " · " + t("room.over") : "");
    }
    const late = room.late.find((l) => l.event === m.event && l.round === m.round && l.match === m.match && !l.clock);
    if (late && late.count && !late.count.arrived) clock = t("roomx.late") + " · " + late.count.score.join(" – ");
    // when the match is expected to end (issue 32 §8; the server's forecast)
    const f = room.forecast, same = (/** @type {{event: string, round: number, match: number}} */ x) =>
      x.event === m.event && x.round === m.round && x.match === m.match;
    const fm = f ? f.matches.find(same) : null;
    if (fm && fm.end_ms != null && live && live.phase !== "match_over") {
      clock += " · " + t("roomx.ends", { t: hm(fm.end_ms) }) + (f && f.holding && same(f.holding) && f.matches.length > 1 ? " ⚑" : "");
    }
    return h("tr", {}, h("td", {}, String(m.table)), h("td", {}, eventRound(m)),
      h("td", {}, (m.a || "") + " – " + (m.b || "")), h("td", {}, score), h("td", {}, clock));
  });
  const f = room.forecast;
  if (f && f.end_ms != null && f.holding) {
    rows.push(h("tr", { class: "room-heading", "data-round-forecast": "1" }, h("td", { colspan: "5" },
      t("roomx.round_ends", { t: hm(f.end_ms), table: f.holding.table == null ? "–" : String(f.holding.table) }))));
  }
  body.replaceChildren(...rows);
}

/**
 * @param {Room} room
 * @param {number} page
 */
export function renderResults(room, page) {
  const body = document.querySelector("#room-results tbody");
  if (!body) return;
  /** @type {HTMLElement[]} */
  const rows = [];
  let heading = "";
  for (const m of pageOf(results(room), page, TABLE_ROWS)) {
    if (m.event !== heading) {
      heading = m.event;
      rows.push(h("tr", { class: "room-heading" }, h("th", { colspan: "4", scope: "colgroup" },
        t("room." + m.event))));
    }
    const loser = m.winner === m.a ? m.b : m.a;
    const r = m.result || {};
    rows.push(h("tr", {}, h("td", {}, String(m.table)), h("td", {}, eventRound(m)),
      h("td", {}, "★ " + (m.winner || "") + " – " + (loser || "")), h("td", {}, resultText(m, r, t))));
  }
  body.replaceChildren(...rows);
}

/**
 * @param {Room} room
 * @param {number} page
 */
export function renderLate(room, page) {
  const list = document.getElementById("room-late");
  if (!list) return;
  const now = serverNow();
  list.replaceChildren(...pageOf(lates(room), page, LATE_ROWS).map((l) => {
    const table = l.table == null ? "–" : String(l.table);
    const names = h("strong", {}, l.absent.join(", "));
    if (l.clock) return h("li", {}, names, " ", t("roomx.late_clock", { table: table, t: hm(l.from_ms) }));
    const c = l.count;
    const item = h("li", { "data-late": l.event + "-" + l.round + "-" + l.match }, names, " ", t("roomx.late_count", { table: table }));
    if (!c) return item;
    item.append(" · ", h("span", { class: "count" }, t("roomx.points", { points: c.points, a: c.score[0], b: c.score[1] })));
    if (c.over) item.append(" · ", h("span", { class: "over" }, t("roomx.dq")));
    else if (c.arrived) item.append(" · " + t("roomx.arrived"));
    else if (now < l.from_ms) item.append(" · " + t("roomx.from", { t: hm(l.from_ms) }));
    else {
      if (c.next_point_ms != null) item.append(" · ", h("span", { class: "count" }, t("roomx.next", { t: fmtShort(c.next_point_ms - now) })));
      if (c.out_ms != null) item.append(" · ", h("span", { class: "count" }, t("roomx.out_in", { t: fmtShort(c.out_ms - now) })));
    }
    return item;
  }));
}

