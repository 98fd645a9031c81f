// @ts-check
/* bgclock dashboard: one table in detail: its clocks, the director's
 * commands (rulings named by outcome, adjust, set clock, move time, penalty,
 * late start, close), the suggested ruling on a dispute with its board, the
 * link and its QR code, the log. */
import { modeOf, viewAt } from "../../engine/countdown.js";
import { drawBoard, emptyBoard, place } from "../../board.js";
import { api } from "../../kit/api.js";
import { el, inputEl, selectEl } from "../../kit/dom.js";
import { fmtClock, fmtShort, fmtSigned, parseClock } from "../../kit/format.js";
import { I18N, t } from "../../kit/i18n.js";
import { rulingName } from "../../rulings.js";
import { previewText, setClockPlan } from "../../setclock.js";
import { $, SIDES, app, errText, names, other, presets, sideOf, title, ui } from "../state.js";
import { mergeInfo } from "../link.js";
import { askConfirm, closeDetail, doConfirmed } from "../actions.js";
import { openTableForm } from "./forms.js";

/** @typedef {import("../../kit/types.js").Side} Side */
/** @typedef {import("../../kit/types.js").WireState} WireState */
/** @typedef {import("../state.js").Row} Row */

/** The faces of a doubling cube: what a director may find on the board. */
const CUBE_FACES = [1, 2, 4, 8, 16, 32, 64];

/** Introduce the clock in a game in progress: the side on turn and the cube
 * as it stands on the board (its value and owner, centered by default); the
 * engine refuses a cube no game can show, in the dashboard's words.
 * @param {Object<string, string>} n @returns {HTMLElement} */
function startRow(n) {
  const value = selectEl({ id: "start-cube-value", "aria-label": t("det.cube_value") },
    CUBE_FACES.map((v) => el("option", { value: String(v), text: String(v) })));
  const owner = selectEl({ id: "start-cube-owner", "aria-label": t("det.cube_owner") },
    [el("option", { value: "", text: t("det.cube_centered") }),
      ...SIDES.map((x) => el("option", { value: x, text: x + " · " + n[x] }))]);
  const r = el("div", { class: "row" }, [el("strong", { text: t("det.start") + ":" }),
    el("span", { text: t("bar.cube") }), value, owner]);
  for (const side of SIDES) {
    r.append(el("button", { type: "button", "data-act": "start-" + side, text: n[side], onclick: () => {
      const cube = { value: parseInt(value.value, 10), owner: owner.value === "" ? null : owner.value };
      const shown = t("bar.cube") + " " + cube.value + " " + (cube.owner ? n[cube.owner] : t("det.cube_centered"));
      askConfirm(t("det.start") + " " + n[side] + " · " + shown, [{ do: "start", side: side, cube: cube }]);
    } }));
  }
  return r;
}

/** The selected table's detail. */
export function renderDetail() {
  const d = $("detail"), id = app.selected, row = id != null ? app.tables[id] : null;
  $("main").classList.toggle("detail-open", !!row);
  d.hidden = !row;
  if (!row) return;
  // keep what the director is typing
  /** @type {Object<string, string>} */
  const keep = {};
  d.querySelectorAll("input, select").forEach((i) => { keep[i.id] = /** @type {HTMLInputElement} */ (i).value; });
  d.replaceChildren();
  const s = row.state, n = names(row), info = row.info;
  d.append(el("div", { class: "detail-head" }, [el("h2", { text: title(row) }),
    el("button", { type: "button", class: "close-detail", "data-act": "close-detail", "aria-label": t("dir.close_detail"),
      title: t("dir.close_detail"), text: "✕", onclick: closeDetail })]));
  d.append(el("p", { class: "meta", text: [info.rules, t("bar.to", { n: info.length }), info.teams ? t("form.teams") : "",
    s ? t("bar.score") + " " + s.score[0] + "–" + s.score[1] : "", s ? t("bar.cube") + " " + s.cube.value + (s.cube.owner ? " " + n[s.cube.owner] : "") : "",
    s && s.crawford ? t("bar.crawford") : "", s && s.cube_frozen ? t("bar.frozen") : "",
    s ? t("phase." + s.phase) + (s.stopped_reason ? " (" + t("reason." + s.stopped_reason) + ")" : "") : ""].filter(Boolean).join(" · ") }));
  if (s) {
    const clocks = el("div", { class: "clocks" });
    for (const side of SIDES) {
      const run = s[side].running && s.phase === "playing";
      clocks.append(el("div", { class: "clock" + (run ? " run" : "") + (s[side].expired ? " exp" : ""), "data-side": side }, [
        el("div", { text: side + " · " + n[side] + (s[side].expired ? " ⚑" : "") }),
        el("div", { class: "t", "data-clock": "detail" + side, text: fmtClock(s[side].reserve_ms) }),
        el("div", { class: "hint", "data-delay": "detail" + side, text: fmtShort(s[side].delay_ms) + (s[side].forfeit_delay ? " ✗" : "") })
      ]));
    }
    d.append(clocks);
  }
  d.append(actions(row, s, n));
  // link and QR code
  const url = row.url || "";
  d.append(el("fieldset", {}, [el("legend", { text: t("det.link") }),
    el("div", { class: "row" }, [
      el("img", { class: "qr", alt: t("det.qr"), src: "/api/tables/" + id + "/qr.svg" }),
      el("div", { class: "linkbox" }, [url ? el("a", { href: url, target: "_blank", rel: "noopener", id: "table-link", text: url }) : null])])]));
  d.append(el("p", {}, [el("a", { href: "/api/tables/" + id + "/report.html?lang=" + I18N.lang, target: "_blank",
    rel: "noopener", id: "sheet-link", text: t("det.sheet") })]));
  d.append(el("fieldset", {}, [el("legend", { text: t("det.log") }), el("div", { class: "log-wrap", id: "log-wrap" })]));
  renderLog();
  d.querySelectorAll("input, select").forEach((i) => { if (keep[i.id] !== undefined) /** @type {HTMLInputElement} */ (i).value = keep[i.id]; });
}

/** The director's commands. @param {Row} row @param {WireState|null} s @param {Object<string, string>} n @returns {HTMLElement} */
function actions(row, s, n) {
  const box = el("fieldset", { id: "actions" }, [el("legend", { text: t("det.actions") })]);
  box.append(el("p", { class: "msg" + (app.resultErr ? " err" : ""), id: "result", text: app.result }));
  if (!s) return box;
  /** @param {string} label @param {string} act @param {string} text @param {() => Object<string, any>[]} cmds */
  const btn = (label, act, text, cmds) => el("button", { type: "button", "data-act": act, text: label, onclick: () => askConfirm(text, cmds()) });
  /** @param {string} idn */
  const sideSel = (idn) => selectEl({ id: idn, "aria-label": t("dir.side") }, SIDES.map((x) => el("option", { value: x, text: x + " · " + n[x] })));
  const ph = s.phase;
  const row1 = el("div", { class: "row" });
  if (ph === "stopped" || ph === "break") row1.append(btn(t("det.resume"), "resume", t("det.resume"), () => [{ do: "resume" }]));
  if (ph === "playing") row1.append(btn(t("det.stop"), "stop", t("det.stop"), () => [{ do: "stop", side: s.on_turn || "A", reason: "director" }]));
  if (row1.childNodes.length) box.append(row1);
  if (ph === "dispute") {
    const r = el("div", { class: "row" }, [el("strong", { text: t("det.ruling") + ":" })]);
    /** @param {string} decision @param {string} [res] */
    const named = (decision, res) => rulingName(/** @type {import("../../rulings.js").TableState} */ (s), n, decision, res, t);
    if (s.dispute === "time_expired") {
      for (const res of ["single", "gammon", "backgammon"]) {
        const label = named("gin", res);
        r.append(btn(label, "ruling-gin-" + res, t("det.ruling") + ": " + label, () => [{ do: "ruling", decision: "gin", result: res }]));
      }
      r.append(btn(named("lost"), "ruling-lost", t("det.ruling") + ": " + named("lost"), () => [{ do: "ruling", decision: "lost" }]));
    } else {
      r.append(btn(named("accept"), "ruling-accept", t("det.ruling") + ": " + named("accept"), () => [{ do: "ruling", decision: "accept" }]));
      r.append(btn(named("invalid"), "ruling-invalid", t("det.ruling") + ": " + named("invalid"), () => [{ do: "ruling", decision: "invalid" }]));
    }
    box.append(r);
    box.append(suggestBox(row, s, n));
  }
  if (ph !== "match_over") {
    // adjust, move time
    const amount = inputEl({ id: "adj-amount", size: 6, placeholder: "0:30", "aria-label": t("det.amount") });
    const adjSide = sideSel("adj-side");
    const amountMs = () => parseClock(amount.value);
    /** @param {number} sign */
    const adjust = (sign) => () => {
      const ms = amountMs();
      if (!ms) { app.result = t("det.amount"); app.resultErr = true; renderDetail(); return; }
      const side = adjSide.value;
      askConfirm(t("det.adjust") + " " + side + " " + fmtSigned(sign * ms), [{ do: "adjust", side: side, delta_ms: sign * ms }]);
    };
    box.append(el("div", { class: "row" }, [el("strong", { text: t("det.adjust") + ":" }), adjSide, amount,
      el("button", { type: "button", "data-act": "adjust-add", text: t("det.add"), onclick: adjust(1) }),
      el("button", { type: "button", "data-act": "adjust-remove", text: t("det.remove"), onclick: adjust(-1) })]));
    box.append(setClockRow(row, s, n));
    /** @param {Side} from */
    const move = (from) => () => {
      const ms = amountMs(), to = from === "A" ? "B" : "A";
      if (!ms) { app.result = t("det.amount"); app.resultErr = true; renderDetail(); return; }
      askConfirm(t("det.move") + " " + fmtClock(ms) + " " + t("det.move_from", { a: n[from], b: n[to] }),
        [{ do: "adjust", side: from, delta_ms: -ms }, { do: "adjust", side: to, delta_ms: ms }]);
    };
    box.append(el("div", { class: "row" }, [el("strong", { text: t("det.move") + ":" }),
      el("button", { type: "button", "data-act": "move-AB", text: t("det.move_from", { a: "A", b: "B" }), onclick: move("A") }),
      el("button", { type: "button", "data-act": "move-BA", text: t("det.move_from", { a: "B", b: "A" }), onclick: move("B") })]));
    // penalty points
    const penSide = sideSel("pen-side");
    const pts = inputEl({ id: "pen-points", type: "number", min: 1, value: 1, style: "width: 4em", "aria-label": t("det.points") });
    box.append(el("div", { class: "row" }, [el("strong", { text: t("det.penalty") + ":" }), penSide, pts,
      el("button", { type: "button", "data-act": "penalty", text: t("det.penalty"), onclick: () => {
        const p = parseInt(pts.value, 10);
        askConfirm(t("det.penalty") + ": " + p + " → " + n[penSide.value], [{ do: "penalty", side: penSide.value, points: p }]);
      } })]));
  }
  if (ph === "playing" || ph === "stopped") {
    const r = el("div", { class: "row" }, [el("strong", { text: t("det.premature") + ":" })]);
    for (const side of SIDES) r.append(btn(n[side], "premature-" + side, t("det.premature") + " " + n[side], () => [{ do: "premature", side: side }]));
    box.append(r);
  }
  if (ph === "setup") {
    const r = el("div", { class: "row" }, [el("strong", { text: t("det.late_start") + ":" })]);
    for (const side of SIDES) r.append(btn(n[side], "late_start-" + side, t("det.late_start") + " " + n[side], () => [{ do: "late_start", side: side }]));
    box.append(r);
    const p = s.rules ? presets[s.rules] : null;
    if (!p || p.mid_game_start) box.append(startRow(n));
  }
  if (row.info.status !== "closed" && row.seq === 0) {
    box.append(el("div", { class: "row" }, [el("button", { type: "button", "data-act": "edit-table", text: t("det.edit_table"),
      onclick: () => openTableForm(row.info) })]));
  }
  if (row.info.status !== "closed") {
    box.append(el("div", { class: "row" }, [el("button", { type: "button", "data-act": "close-table", text: t("det.close_table"),
      onclick: () => askConfirm(t("det.close_table"), [], null, async () => {
        app.confirm = null;
        try { mergeInfo(await api("POST", "/api/tables/" + row.info.id + "/close")); } catch (e) { app.result = errText(e); }
        ui.render();
      }) })]));
  }
  return box;
}

/* The position as a board: shown from the typed ID (GET /api/position), or entered
 * by clicks on an empty board and written as a Position ID (POST /api/position). */
/** @param {number} id */
async function showBoard(id) {
  const field = /** @type {HTMLInputElement|null} */ (document.getElementById("sugg-position"));
  const text = (field && field.value) || "";
  try { app.board = { table: id, board: await api("GET", "/api/position?id=" + encodeURIComponent(text.trim())) }; }
  catch (e) { app.board = { table: id, error: errText(e) }; }
  renderDetail();
}
/** @param {number} id */
async function makeId(id) {
  const ed = app.boardEdit;
  try {
    const out = await api("POST", "/api/position", { on_roll: { points: ed.board.on_roll.points, bar: ed.board.on_roll.bar },
      opponent: { points: ed.board.opponent.points, bar: ed.board.opponent.bar }, dice: ed.board.dice });
    ed.out = out; ed.error = null;
    const pos = /** @type {HTMLInputElement|null} */ (document.getElementById("sugg-position"));
    if (pos) pos.value = out.position_id;
  } catch (e) { ed.error = errText(e); ed.out = null; }
  if (app.selected === id) renderDetail();
}
/** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
function boardBox(row, s, n) {
  const id = row.info.id;
  /** @type {Object<string, string>} */
  const who = { on_roll: n[s.on_turn || ""] || t("brd.on_roll"), opponent: n[other(s.on_turn || "A")] || t("brd.opponent") };
  const box = el("div", { class: "board-box", id: "board-box" });
  const ed = app.boardEdit && app.boardEdit.table === id ? app.boardEdit : null;
  box.append(el("div", { class: "row" }, [
    el("button", { type: "button", "data-act": "show-board", text: t("brd.show"), onclick: () => showBoard(id) }),
    el("button", { type: "button", "data-act": "enter-board", text: ed ? t("brd.close_editor") : t("brd.enter"), onclick: () => {
      app.boardEdit = ed ? null : { table: id, board: emptyBoard(), who: "on_roll", remove: false };
      renderDetail();
    } })]));
  const shown = app.board && app.board.table === id ? app.board : null;
  if (shown && !ed) {
    if (shown.error) box.append(el("p", { class: "msg err", id: "board-error", text: shown.error }));
    else {
      const wrap = el("div", { class: "board-view", id: "board-view" });
      wrap.append(drawBoard(shown.board));
      wrap.append(el("p", { class: "hint", text: t("brd.legend", { me: who.on_roll, them: who.opponent }) }));
      box.append(wrap);
    }
  }
  if (!ed) return box;
  const b = ed.board;
  const sideSel = selectEl({ id: "be-side", onchange: (e) => { ed.who = /** @type {HTMLSelectElement} */ (e.target).value; } }, ["on_roll", "opponent"].map((x) =>
    el("option", { value: x, text: t("brd.side." + x, { name: who[x] }), selected: ed.who === x ? "selected" : null })));
  const remove = inputEl({ type: "checkbox", id: "be-remove", onchange: (e) => { ed.remove = /** @type {HTMLInputElement} */ (e.target).checked; } });
  remove.checked = ed.remove;
  /** @param {number} i */
  const die = (i) => selectEl({ id: "be-d" + i, "aria-label": t("brd.die"), onchange: (e) => {
    const d = b.dice || [0, 0];
    d[i - 1] = Number(/** @type {HTMLSelectElement} */ (e.target).value);
    b.dice = d[0] && d[1] ? d : (d[0] || d[1] ? d : null);
  } }, ["—", 1, 2, 3, 4, 5, 6].map((v, k) => el("option", { value: k, text: String(v),
    selected: b.dice && b.dice[i - 1] === k ? "selected" : null })));
  const editor = el("div", { class: "board-editor", id: "board-editor" }, [
    el("div", { class: "row" }, [sideSel, el("label", {}, [remove, " " + t("brd.remove")]),
      el("span", { text: t("brd.dice") }), die(1), die(2),
      el("button", { type: "button", class: "go", "data-act": "make-id", text: t("brd.make"), onclick: () => {
        if (b.dice && !(b.dice[0] && b.dice[1])) { ed.error = t("brd.both_dice"); renderDetail(); return; }
        makeId(id);
      } }),
      el("button", { type: "button", "data-act": "clear-board", text: t("brd.clear"), onclick: () => { ed.board = emptyBoard(); ed.out = null; renderDetail(); } })]),
    drawBoard(b, { onPoint: (p, ev) => {
      const minus = ed.remove || ev.type === "contextmenu";
      if (place(b, ed.who, p, minus ? -1 : 1)) { ed.out = null; renderDetail(); }
    } }),
    el("p", { class: "hint", text: t("brd.help", { me: who.on_roll, them: who.opponent, a: 15 - b.on_roll.off, b: 15 - b.opponent.off }) })]);
  if (ed.out) editor.append(el("p", {}, [el("strong", { text: t("brd.made") + " " }), el("code", { id: "be-id", text: ed.out.position_id }),
    el("span", { class: "hint", text: " · " + ed.out.xgid })]));
  if (ed.error) editor.append(el("p", { class: "msg err", id: "be-error", text: ed.error }));
  box.append(editor);
  return box;
}

/* "Set clock to m:ss": the delta is computed from the reserve when the command is sent. */
/** @param {Row} row @param {Side} side @returns {number} */
function reserveNow(row, side) {
  const s = row.state;
  if (!s) return 0;
  if (s.phase !== "playing" || !s[side].running) return s[side].reserve_ms;
  return viewAt(s, modeOf(s, row.info, presets), performance.now() - row.recvAt)[side].reserve_ms;
}
/** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
function setClockRow(row, s, n) {
  const side = selectEl({ id: "set-side", "aria-label": t("dir.side") }, SIDES.map((x) => el("option", { value: x, text: x + " · " + n[x] })));
  const to = inputEl({ id: "set-to", size: 6, placeholder: "5:00", autocomplete: "off", "aria-label": t("set.title") });
  const preview = el("span", { class: "set-preview", id: "set-preview", "aria-live": "polite" });
  const warn = el("span", { class: "msg err set-warn", id: "set-warn" });
  const show = () => {
    const ms = to.value.trim() ? parseClock(to.value) : null;
    if (ms == null) { preview.textContent = to.value.trim() ? t("set.bad") : ""; warn.textContent = ""; return; }
    const plan = setClockPlan(reserveNow(row, sideOf(side.value)), ms);
    preview.textContent = previewText(side.value, plan, fmtClock);
    warn.textContent = plan.flags ? t("set.flags", { name: n[side.value] }) : "";
  };
  to.addEventListener("input", show);
  side.addEventListener("change", show);
  app.setPreview = show;
  const go = el("button", { type: "button", "data-act": "set-clock", text: t("set.go"), onclick: () => {
    const ms = parseClock(to.value);
    if (ms == null) { app.result = t("set.bad"); app.resultErr = true; renderDetail(); return; }
    const x = sideOf(side.value), plan = setClockPlan(reserveNow(row, x), ms);
    const tableId = row.info.id;
    askConfirm(t("set.title") + " " + previewText(x, plan, fmtClock) + (plan.flags ? " " + t("set.flags", { name: n[x] }) : ""), [], null,
      () => doConfirmed(tableId, [{ do: "adjust", side: x, delta_ms: setClockPlan(reserveNow(row, x), ms).delta_ms }]));
  } });
  setTimeout(show, 0);
  return el("div", { class: "row set-clock" }, [el("strong", { text: t("set.title") + ":" }), side, to, go, preview, warn]);
}

/* The board engine's ruling on a dispute, from the position the director types
 * (POST /api/tables/{id}/adjudicate): a suggestion, applied only when confirmed. */
/** @param {number} id @param {string} text */
async function suggestRuling(id, text) {
  if (!text.trim()) { app.suggest = { table: id, error: t("det.sugg.empty") }; renderDetail(); return; }
  app.suggest = { table: id, busy: true };
  renderDetail();
  let sg;
  try { sg = { table: id, out: await api("POST", "/api/tables/" + id + "/adjudicate", { position: text.trim() }) }; }
  catch (e) { sg = { table: id, error: errText(e) }; }
  if (app.selected === id) { app.suggest = sg; renderDetail(); }
}
/** @param {Row} row @param {WireState} s @param {Object<string, string>} n @returns {HTMLElement} */
function suggestBox(row, s, n) {
  const id = row.info.id, sg = app.suggest && app.suggest.table === id ? app.suggest : null;
  const pos = inputEl({ id: "sugg-position", size: 32, autocomplete: "off", spellcheck: "false",
    placeholder: "4HPwATDgc/ABMA", "aria-label": t("det.sugg.position") });
  const box = el("div", { class: "suggest", id: "suggest" }, [
    el("div", { class: "row" }, [el("strong", { text: t("det.sugg.position") + ":" }), pos,
      el("button", { type: "button", "data-act": "suggest", text: t("det.sugg.ask"), disabled: !!(sg && sg.busy),
        onclick: () => suggestRuling(id, pos.value) })]),
    el("p", { class: "hint", text: t("det.sugg.on_roll", { side: s.on_turn || "?", name: n[s.on_turn || ""] || "?" }) })]);
  box.append(boardBox(row, s, n));
  if (!sg) return box;
  const out = el("div", { class: "suggestion", id: "suggestion", role: "status" });
  if (sg.busy) out.append(el("p", { text: t("det.sugg.busy") }));
  else if (sg.error) out.append(el("p", { class: "msg err", text: t("det.sugg.error", { m: sg.error }) }));
  else {
    const o = sg.out;
    if (o.command) {
      const label = rulingName(/** @type {import("../../rulings.js").TableState} */ (s), n, o.decision, o.result, t);
      out.append(el("p", {}, [el("strong", { text: t("det.sugg.ruling") + ": " }), el("span", { class: "sugg-ruling", text: label })]));
      out.append(el("p", { class: "sugg-reason", text: o.reason }));
      out.append(el("p", { class: "hint sugg-clause", text: o.clause }));
      out.append(el("button", { type: "button", class: "act", "data-act": "apply-suggestion", text: t("det.sugg.apply", { what: label }),
        onclick: () => askConfirm(t("det.ruling") + ": " + label, [o.command]) }));
    } else {
      out.append(el("p", {}, [el("strong", { class: "sugg-ruling", text: t("det.sugg.unknown") })]));
      out.append(el("p", { class: "sugg-reason", text: o.reason }));
      out.append(el("p", { class: "hint sugg-clause", text: o.clause }));
    }
  }
  box.append(out);
  return box;
}

/** A log event in a few words. @param {any} ev @returns {string} */
function describe(ev) {
  const e = ev.event, parts = [e.do];
  for (const k of ["side", "winner", "dice", "result", "reason", "decision", "delta_ms", "points"]) {
    if (e[k] === undefined) continue;
    parts.push(k === "delta_ms" ? fmtSigned(e[k]) : Array.isArray(e[k]) ? e[k].join("-") : String(e[k]));
  }
  return parts.join(" ");
}
export function renderLog() {
  const wrap = $("log-wrap");
  if (!wrap) return;
  const tbl = el("table", { class: "log", id: "log" }, [el("thead", {}, [el("tr", {}, ["log.seq", "log.at", "log.event", "log.source", "log.lag", "A", "B"].map((k) =>
    el("th", { text: k.length > 1 ? t(k) : k })))])]);
  const body = el("tbody");
  // the summonses among the events, each after the event it followed
  /** @type {{ev?: any, note?: any, order: number[]}[]} */
  const rows = app.log.events.map((ev) => /** @type {{ev?: any, note?: any, order: number[]}} */ ({ ev: ev, order: [ev.seq, 0] }))
    .concat((app.log.notes || []).map((x) => ({ note: x, order: [x.seq, x.n] })))
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
  for (const r of rows.reverse()) {
    if (r.note) {
      const x = r.note;
      body.append(el("tr", { class: "note" }, [el("td", { text: "" }), el("td", { text: fmtClock(x.at_ms) }),
        el("td", { text: x.type === "keeper" ? "⏱ " + t("log.keeper", { d: x.device })
          : x.type === "handled" ? "✓ " + t("log.handled", { k: x.key })
          : x.type === "flag_final" ? "⚑ " + t("log.flag_final", { t: fmtClock(x.at_ms), how: x.how })
          : "☎ " + x.type + " " + x.why + " " + x.side }), el("td", { text: x.source }),
        el("td", { text: "" }), el("td", { text: "" }), el("td", { text: "" })]));
      continue;
    }
    const ev = r.ev;
    body.append(el("tr", { class: ev.source === "director" ? "dir" : "" }, [
      el("td", { text: ev.seq }), el("td", { text: fmtClock(ev.at_ms) }), el("td", { text: describe(ev) }),
      el("td", { text: ev.source }), el("td", { text: ev.lag_credit_ms ? ev.lag_credit_ms + " ms" : "" }),
      el("td", { text: fmtClock(ev.state.A.reserve_ms) }), el("td", { text: fmtClock(ev.state.B.reserve_ms) })]));
  }
  tbl.append(body);
  wrap.replaceChildren(tbl);
}

