// @ts-check
/* bgclock dashboard, the Swing and couples screen: the Swing: its creation
 * (players, starting VP, CPP schedule, rule book, clock tables, reserve),
 * its rounds paired, each game's table link and results by hand, the VP
 * table and chart. */
import { api } from "../../kit/api.js";
import { button, h } from "../../kit/dom.js";
import { act } from "../actions.js";
import { screen, value } from "../state.js";
import { i18n } from "../strings.js";
import { swingHead, vpChart, vpTable } from "./parts.js";

const t = i18n().t;

/**
 * @typedef {import("../state.js").ContestState} ContestState
 */

/**
 * A link to the clock table serving table number ``n`` (read once from the server).
 * @param {number|null} n
 * @returns {HTMLElement|null}
 */
export function tableLink(n) {
  const st = screen.state;
  if (n == null || !st) return null;
  const tid = st.tables[String(n)];
  if (tid == null) return null;
  const a = h("a", { href: screen.links[String(tid)] || "#", target: "_blank", rel: "noopener", class: "table-link",
    "data-table": String(n) }, t("sw.table", { n: n }));
  if (!screen.links[String(tid)]) {
    api("GET", "/api/tables/" + tid).then((info) => {
      screen.links[String(tid)] = location.origin + "/t/" + tid + "?token=" + info.token;
      a.setAttribute("href", screen.links[String(tid)]);
    }).catch(() => { /* no link: the table number is still shown */ });
  }
  return a;
}

/** @returns {HTMLElement} */
export function swingSection() {
  const st = /** @type {ContestState} */ (screen.state);
  const out = h("section", { class: "swing", "aria-labelledby": "con-swing-h" }, h("h3", { id: "con-swing-h" }, t("sw.title")));
  const sw = st.swing;
  if (!sw) {
    const form = h("div", { class: "form" },
      h("label", { for: "sw-players" }, t("sw.players")), h("input", { id: "sw-players" }),
      h("label", { for: "sw-vp" }, t("sw.start_vp")), h("input", { id: "sw-vp", type: "number", min: "1", value: "1000" }),
      h("label", { for: "sw-cpp" }, t("sw.cpp")), h("input", { id: "sw-cpp", value: "100,200" }),
      h("label", { for: "sw-rules" }, t("sw.rules")), h("input", { id: "sw-rules", value: "it-tournament" }),
      h("label", { for: "sw-clock" }, t("sw.clock")),
      h("select", { id: "sw-clock" }, h("option", { value: "required" }, "✓"), h("option", { value: "none" }, "—")),
      h("label", { for: "sw-reserve" }, t("sw.reserve")), h("input", { id: "sw-reserve", type: "number", min: "0" }),
      h("span", {}),
      button(t("sw.create"), () => {
        /** @type {Object<string, any>} */
        const body = {
          start_vp: Number(value("sw-vp")),
          cpp: value("sw-cpp").split(",").filter((x) => x.trim()).map(Number),
          rules: value("sw-rules").trim(), clock: value("sw-clock")
        };
        const ids = value("sw-players").split(/[ ,]+/).filter((x) => x.trim()).map(Number);
        if (ids.length) body.players = ids;
        if (value("sw-reserve").trim()) body.clock_override = { reserve_ms: Math.round(Number(value("sw-reserve")) * 1000) };
        act("/swing", body);
      }, { id: "sw-create" }));
    out.append(form);
    return out;
  }
  out.append(swingHead(sw, t));
  if (!sw.winner && !sw.under_way) out.append(button(t("sw.pair", { n: sw.round }), () => act("/swing/rounds", {}), { id: "sw-pair" }));
  if (sw.under_way) {
    const list = h("ol", { class: "swing-games", start: "0" });
    sw.games.forEach((g, i) => {
      const item = h("li", { "data-game": String(i) }, g.a + " – " + g.b + " · " + t("sw.stake", { s: g.stake }) + (g.all_in ? " · " + t("sw.all_in") : ""));
      const link = tableLink(sw.clock === "none" ? null : g.table);
      if (link) item.append(" · ", link);
      else item.append(" · " + t("sw.table", { n: g.table }));
      if (g.winner) {
        item.append(" · ★ " + g.winner + " (" + t("sw." + g.result) + (g.cube > 1 ? " ×" + g.cube : "") + ")");
      } else {
        const result = h("select", { id: "sw-result-" + i, "aria-label": t("sw.result") },
          ...["single", "gammon", "backgammon"].map((r) => h("option", { value: r }, t("sw." + r))));
        const cube = h("input", { id: "sw-cube-" + i, type: "number", min: "1", value: "1", "aria-label": t("sw.cube"), class: "cube" });
        item.append(" ", result, " ", cube);
        for (const who of [g.a, g.b]) {
          item.append(" ", button(t("sw.won", { name: who }), () => act("/swing/results",
            { game: i, winner: who, result: value("sw-result-" + i), cube: Number(value("sw-cube-" + i)) })));
        }
      }
      list.append(item);
    });
    out.append(h("h4", {}, t("sw.games")), list);
  }
  if (!sw.under_way && sw.correctable && sw.rounds.length) {
    // the last round played can be corrected until the next one is paired
    const last = sw.rounds[sw.rounds.length - 1];
    const list = h("ol", { class: "swing-last", start: "0" });
    last.games.forEach((g, i) => {
      const item = h("li", {}, g.a + " – " + g.b + " · ★ " + g.winner + " (" + t("sw." + g.result)
        + (g.cube > 1 ? " ×" + g.cube : "") + ")" + (g.corrected ? " · " + t("sw.corrected") : ""));
      const result = h("select", { id: "sw-fix-result-" + i, "aria-label": t("sw.result") },
        ...["single", "gammon", "backgammon"].map((r) => h("option", { value: r }, t("sw." + r))));
      const cube = h("input", { id: "sw-fix-cube-" + i, type: "number", min: "1", value: "1", "aria-label": t("sw.cube"), class: "cube" });
      item.append(" ", result, " ", cube);
      for (const who of [g.a, g.b]) {
        item.append(" ", button(t("sw.correct", { name: who }), () => act("/swing/corrections",
          { game: i, winner: who, result: value("sw-fix-result-" + i), cube: Number(value("sw-fix-cube-" + i)) })));
      }
      list.append(item);
    });
    out.append(h("h4", {}, t("sw.last_round", { n: last.round })), list);
  }
  out.append(h("div", { class: "swing-grid" }, vpTable(sw, t), vpChart(sw, t)));
  return out;
}

