// @ts-check
/* bgclock table page: one half of the screen, facing its player.  The face
 * (name, status, the clock, messages: nothing to tap but the press itself)
 * and, at the player's own edge, the strip with the cube, the decisions
 * (double, take, pass, accept, reject) and the menu; the far half is turned
 * with its strip, so each strip faces its player. */
import { el } from "../../kit/dom.js";
import { fmtClock } from "../../kit/format.js";
import { t } from "../../kit/i18n.js";
import { app, other, ui } from "../state.js";
import { tableNow } from "../link.js";
import { engineReady } from "../match.js";
import { callDirector, command, stopNow } from "../commands.js";
import { playerOptions } from "../options.js";
import { halves, q } from "./screen.js";

/** @typedef {import("../../kit/types.js").Side} Side */
/** @typedef {import("../../kit/types.js").WireState} WireState */
/** @typedef {{A: string, B: string}} Names */

/** Ask `side`'s player to confirm `cmd` (a command, or a function that sends).
 * @param {Side} side @param {string} what @param {Object<string, any>|(() => unknown)} cmd @param {string} text */
function ask(side, what, cmd, text) {
  app.panel[side] = { kind: "confirm", what: what, cmd: cmd, text: text };
  ui.render();
}
/** @param {Side} side */
function closePanel(side) { app.panel[side] = null; ui.render(); }

/** One half. @param {Side} side @param {WireState} st @param {Names} nm */
export function renderHalf(side, st, nm) {
  const h = halves[side], s = st[side], o = playerOptions(st, side);
  // what the rules refuse now is not offered (an Italian premature bars the cube)
  if (o.double && app.engine && engineReady()) {
    const ms = tableNow(performance.now());
    if (ms != null && app.engine.check({ do: "double", side: side }, ms)) o.double = false;
  }
  q(side, ".name").textContent = nm[side];
  q(side, "[data-side-tag]").textContent = side;
  const over = st.phase === "match_over";
  const won = over && st.winner === side;
  const penalised = !!app.penalty && app.penalty.side === side && st.phase === "stopped" && st.stopped_reason === "time_expired";
  h.classList.toggle("running", s.running && st.phase === "playing");
  h.classList.toggle("paused", st.on_turn === side && st.phase !== "playing");
  h.classList.toggle("flag", !won && (!!s.expired || penalised || (over && st.stopped_reason === "time_expired" && st.winner === other(side))));
  h.classList.toggle("winner", won);
  h.classList.toggle("between", st.phase === "setup" || st.phase === "between_games" || (st.phase === "playing" && st.game === 0));
  let status = "";
  if (h.classList.contains("flag")) status = t("half.flag");
  else if (over) status = won ? (s.expired || s.reserve_ms === 0 ? t("msg.winner_gin") : t("half.winner")) + " · " + st.score[0] + "–" + st.score[1] : "";
  else if (s.running && st.phase === "playing") status = t("half.turn");
  else if (st.on_turn === side) status = t("half.stopped");
  else status = t("half.idle");
  // USBGF overtime option: this side has had its one extra time in the match.
  h.classList.toggle("overtime", !!s.overtime);
  if (s.overtime && st.phase !== "match_over") status = (status ? status + " · " : "") + t("half.overtime");
  q(side, ".status").textContent = status;
  // the messages, the same in both halves (each turned to its player)
  const ctx = q(side, ".ctx");
  const notes = messages(st, nm);
  const key = notes.join("\n") + (st.phase === "break" ? "|brk" : "");
  if (ctx.dataset.key !== key) {
    ctx.dataset.key = key;
    ctx.replaceChildren(...notes.map((x) => el("div", { class: "note", text: x })));
    if (st.phase === "break") ctx.append(el("div", { class: "note brk" }));
  }
  h.classList.toggle("decide", notes.length > 0);
  // the strip at the player's edge: one tap, then a confirmation in the strip
  const chip = q(side, ".chip");
  chip.textContent = st.game > 0 || st.cube.value > 1 ? (st.cube.owner === side ? t("edge.cube_mine", { v: st.cube.value })
    : st.cube.owner ? t("edge.cube_theirs", { v: st.cube.value, name: nm[st.cube.owner] }) : t("edge.cube", { v: st.cube.value })) : "";
  const acts = q(side, ".acts");
  acts.replaceChildren();
  /** @param {string} cls @param {string} act @param {string} text @param {() => void} onclick */
  const btn = (cls, act, text, onclick) => el("button", { type: "button", class: "act " + cls, "data-act": act, text: text, onclick: onclick });
  const offer = st.offer;
  if (o.take || o.pass) {
    if (o.take) acts.append(btn("take", "take", t("act.take"),
      () => ask(side, "take", { do: "take", side: side }, t("ask.take", { name: nm[side], v: st.cube.value * 2 }))));
    if (o.pass) acts.append(btn("pass", "pass", t("act.pass"),
      () => ask(side, "pass", { do: "pass", side: side }, t("ask.pass", { name: nm[side], pts: t("points", { n: st.cube.value }) }))));
  } else if (st.phase === "offer" && offer && o.accept) {
    const r = t("result." + offer.result);
    acts.append(btn("accept", "accept", t("act.accept"),
      () => ask(side, "accept", { do: "accept", side: side }, t("ask.accept", { name: nm[side], kind: offer.kind, r: r }))));
    acts.append(btn("reject", "reject", t("act.reject"),
      () => ask(side, "reject", { do: "reject", side: side }, t("ask.reject", { name: nm[side] }))));
  } else if (o.double) {
    acts.append(btn("double", "double", t("act.double") + " → " + st.cube.value * 2,
      () => ask(side, "double", { do: "double", side: side }, t("ask.double", { name: nm[side], v: st.cube.value * 2 }))));
  }
  q(side, ".more").hidden = app.closed || over;
  renderPanel(side, st, nm);
}

/** What both players should read now, derived from the state (and, for
 * what a state alone does not say, from the change that led to it).
 * @param {WireState} st @param {Names} nm @returns {string[]} */
function messages(st, nm) {
  const out = [];
  if (st.phase === "offer" && st.offer) {
    out.push(t("offer." + st.offer.kind, { name: nm[st.offer.side], r: t("result." + st.offer.result) }));
    out.push(t("msg.offer_answer", { name: nm[other(st.offer.side)] }));
  } else if (st.double_offered_by) {
    out.push(t("double.offer", { name: nm[st.double_offered_by], v: st.cube.value * 2 }));
    out.push(t("msg.double_answer", { name: nm[other(st.double_offered_by)] }));
  }
  if (st.phase === "stopped" && st.stopped_reason === "time_expired") {
    // aba-2003 5.1: penalty points (or the grace) and the clock reset to 5:00
    const pen = app.penalty, reset = fmtClock(5 * 60000);
    if (pen && pen.points > 0) out.push(t("msg.aba_penalty", { n: pen.points, name: nm[other(pen.side)], reset: reset }));
    else if (pen) out.push(t("msg.aba_grace", { reset: reset }));
    else out.push(t("msg.aba_reset", { reset: reset }));
  }
  if (st.phase === "dispute" || (st.phase === "stopped" && (st.stopped_reason === "director" || st.stopped_reason === "dispute"))
      || (st.phase === "stopped" && app.summoned && app.summoned.seq === app.seq)) {
    out.push(t("msg.director"));
  }
  if ((st.phase === "between_games" || st.phase === "match_over") && app.lastGame) {
    const g = app.lastGame;
    out.push(t("msg.last_game", { name: nm[g.side], pts: t("points", { n: g.points }) }));
  }
  if (st.phase === "between_games") out.push(t("msg.score_now", { a: st.score[0], b: st.score[1] }));
  return out;
}

/** The panel inside a half (so it faces that player): the side's menu or a
 * confirmation. @param {Side} side @param {WireState} st @param {Names} nm */
function renderPanel(side, st, nm) {
  const panel = q(side, ".panel"), p = app.panel[side];
  panel.hidden = !p;
  panel.classList.toggle("confirm", !!p && p.kind === "confirm");
  panel.replaceChildren();
  if (!p) return;
  const close = el("button", { type: "button", class: "close", "data-act": "close", "aria-label": t("act.close"), text: "✕", onclick: () => closePanel(side) });
  if (p.kind === "confirm") {
    const cmd = p.cmd;
    panel.append(el("p", { class: "ask", text: p.text }),
      el("div", { class: "row" }, [
        el("button", { type: "button", class: "act confirm", "data-act": "confirm", text: t("act.confirm"),
          onclick: () => { closePanel(side); if (typeof cmd === "function") cmd(); else command(cmd); } }),
        el("button", { type: "button", class: "act cancel", "data-act": "cancel", text: t("act.cancel"), onclick: () => closePanel(side) })
      ]));
    return;
  }
  const o = playerOptions(st, side);
  panel.append(el("div", { class: "phead" }, [el("h3", { text: t("menu.side", { name: nm[side] }) }), close]));
  const results = ["single", "gammon", "backgammon"];
  // two steps so the menu fits a phone's half: the kind, then the result
  if (p.kind === "results") {
    const kind = p.what, askKey = "ask." + kind;
    panel.replaceChildren(el("div", { class: "phead" }, [el("h3", { text: t("menu." + kind + "_title") }), close]),
      el("div", { class: "prow" }, results.map((r) => el("button", { type: "button", class: "act", "data-act": kind + "-" + r, text: t("result." + r),
        onclick: () => ask(side, kind, kind === "game_over" ? { do: "game_over", winner: side, result: r } : { do: kind, side: side, result: r },
          t(askKey, { name: nm[side], r: t("result." + r) })) }))));
    return;
  }
  const kinds = el("div", { class: "prow" });
  for (const kind of /** @type {const} */ (["game_over", "concede", "claim"])) {
    if (o[kind]) kinds.append(el("button", { type: "button", class: "act", "data-act": kind, text: t("menu." + kind + "_title") + " …",
      onclick: () => { app.panel[side] = { kind: "results", what: kind }; ui.render(); } }));
  }
  if (kinds.childElementCount) panel.append(kinds);
  const row = el("div", { class: "prow" });
  if (o.break) row.append(el("button", { type: "button", class: "act", "data-act": "break", text: t("act.break"),
    onclick: () => ask(side, "break", { do: "break", side: side }, t("ask.break", { name: nm[side] })) }));
  if (o.stop) {
    // on a small phone the icon alone (style.css), so the row fits the half
    /** @param {string} key */
    const label = (key) => { const [icon, ...words] = t(key).split(" ");
      return [el("span", { text: icon }), el("span", { class: "long", text: " " + words.join(" ") })]; };
    row.append(el("button", { type: "button", class: "act", "data-act": "stop", "aria-label": t("act.stop"), title: t("act.stop"),
      onclick: () => { app.panel[side] = null; stopNow(side); } }, label("act.stop")));
    row.append(el("button", { type: "button", class: "act summon", "data-act": "summon", "aria-label": t("act.summon"), title: t("act.summon"),
      onclick: () => ask(side, "summon", () => callDirector(side, "director"), t("ask.summon")) }, label("act.summon")));
  }
  // USBGF 4.1 / BIBA 4.6: the player on turn claims the opponent's premature action
  if ((st.phase === "playing" || st.phase === "stopped") && st.game > 0 && st.on_turn === side) {
    row.append(el("button", { type: "button", class: "act", "data-act": "premature",
      text: t("act.premature", { name: nm[other(side)] }),
      onclick: () => ask(side, "premature", () => callDirector(side, "premature"),
        t("ask.premature", { name: nm[side], other: nm[other(side)] })) }));
  }
  if (row.childElementCount) panel.append(row);
}
