// @ts-check
/* bgclock table page: the centre panel: the opening roll (with a late
 * arrival's count), the reasons of a stop, the summons, the settings and a
 * tournament match's score sheets. */
import { el } from "../../kit/dom.js";
import { timeOfDay } from "../../kit/format.js";
import { I18N, t } from "../../kit/i18n.js";
import { app, names, other, saveSettings, tableId, thresholds, ui } from "../state.js";
import { conn } from "../link.js";
import { callDirector, command, sendSheet } from "../commands.js";
import { parseThresholds } from "../warnings.js";
import { forgetShown } from "./clock.js";
import { $, fullscreen } from "./screen.js";

/** @typedef {import("../../kit/types.js").Side} Side */
/** @typedef {import("../../kit/types.js").WireState} WireState */
/** @typedef {{absent: string[], over?: boolean, arrived?: boolean, points: number, score: number[],
 *   next_point_ms?: number|null, out_ms?: number|null}} LateCount */

/** The tournament's late count at this table (info.late), in one line.
 * @param {LateCount} late @returns {string} */
function lateLine(late) {
  const who = late.absent.join(", ");
  /** @param {number} ms */
  const hm = (ms) => timeOfDay(ms, I18N.lang);
  if (late.over) return t("late.over", { names: who });
  let line = t("late.count", { names: who, points: late.points, a: late.score[0], b: late.score[1] });
  if (late.arrived) return line + " · " + t("late.arrived", { names: who });
  if (late.next_point_ms) line += " · " + t("late.next", { t: hm(late.next_point_ms) });
  if (late.out_ms) line += " · " + t("late.out", { t: hm(late.out_ms) });
  return line;
}

/** Draw the centre panel again, whatever it showed. */
export function rerenderCenter() { $("center").dataset.key = ""; ui.render(); }

/** The centre panel for `st`. @param {WireState} st @param {{A: string, B: string}} nm */
export function renderCenter(st, nm) {
  const c = $("center");
  let p = app.decided ? { kind: "decided" } : app.center;
  if (!p) {
    if (app.closed) p = null;
    else if (app.panel.A || app.panel.B) p = null;   // a half's menu is open: the roll waits
    else if (st.phase === "setup" || st.phase === "between_games" || (st.phase === "playing" && st.game === 0)) p = { kind: "roll" };
  }
  c.hidden = !p;
  /** @type {LateCount|null} a late arrival counted by the server */
  const late = (app.info && app.info.late) || null;
  const key = p ? JSON.stringify(p) + JSON.stringify(app.decided) + st.phase + I18N.lang + (app.roll ? app.roll.join() : "") + JSON.stringify(late || null) : "";
  if (c.dataset.key === key && p) return; // keep the pickers as they are
  c.dataset.key = key;
  c.replaceChildren();
  if (!p) return;
  c.dataset.kind = p.kind;
  if (p.kind === "decided" && app.decided) {
    // the director entered the result by hand: the match is over here
    const d = app.decided;
    c.append(el("h3", { id: "center-title", role: "status", text: t("hand.decided", { name: d.name }) }));
    if (d.score) c.append(el("p", { class: "hint", text: t("hand.score", { a: d.score[0], b: d.score[1] }) }));
    c.append(el("p", { class: "hint", text: t("hand.no_presses") }));
  } else if (p.kind === "roll") {
    const roll = app.roll = app.roll || [0, 0];
    c.append(el("h3", { id: "center-title", text: t("roll.title") }));
    if (late) c.append(el("p", { class: "hint late-note", id: "late-note", role: "status", text: lateLine(late) }));
    for (const [i, side] of /** @type {[number, Side][]} */ ([[0, "A"], [1, "B"]])) {
      const row = el("div", { class: "dice", "data-die": side, role: "group", "aria-label": t("roll.die", { name: nm[side] }) },
        [el("span", { class: "label", title: t("roll.die", { name: nm[side] }) }, [el("span", { class: "tag", text: side }), el("span", { class: "rname", text: " " + nm[side] })])]);
      for (let n = 1; n <= 6; n++) {
        row.append(el("button", { type: "button", class: "die" + (roll[i] === n ? " on" : ""), "data-n": n, "aria-pressed": roll[i] === n ? "true" : "false",
          text: "⚀⚁⚂⚃⚄⚅"[n - 1] + n, "aria-label": t("roll.die", { name: nm[side] }) + ": " + n, onclick: () => { roll[i] = n; ui.render(); } }));
      }
      c.append(row);
    }
    const ok = roll[0] && roll[1] && roll[0] !== roll[1];
    const hint = !roll[0] || !roll[1] ? t("roll.pick") : roll[0] === roll[1] ? t("roll.equal") : "";
    c.append(el("p", { class: "hint", id: "roll-hint", text: hint }));
    c.append(el("button", { "aria-describedby": "roll-hint", type: "button", class: "act go", id: "roll-start", disabled: ok ? null : "disabled", text: t("roll.start"),
      onclick: () => { const dice = roll.slice(); app.roll = [0, 0]; command({ do: "opening_roll", dice: dice }); ui.render(); } }));
  } else if (p.kind === "stop") {
    // both clocks already stopped at the tap (reason `other`); the reason now
    c.append(el("h3", { id: "center-title", text: t("stop.done") }));
    const row = el("div", { class: "row wrap" });
    const who = p.side || "A";
    /** @param {string} r @param {string|null} why */
    const pick = (r, why) => {
      app.center = null;
      app.stopNote = { reason: r, side: who };
      if (why) conn.summon({ why: why, side: who });   // a stored note: the director is called
      ui.render();
    };
    for (const r of ["fallen_dice", "dispute", "dice_not_left", "director", "concession", "break", "other"]) {
      row.append(el("button", { type: "button", class: "act", "data-reason": r, text: t("reason." + r),
        onclick: () => pick(r, r === "director" || r === "dispute" ? r : null) }));
    }
    row.append(el("button", { type: "button", class: "act", "data-reason": "premature",
      text: t("stop.premature", { name: nm[other(who)] }), onclick: () => pick("premature", "premature") }));
    c.append(row, el("button", { type: "button", class: "close", "data-act": "close", text: t("act.close"),
      onclick: () => { app.center = null; ui.render(); } }));
  } else if (p.kind === "summon") {
    c.append(el("p", { class: "ask", text: t("ask.summon") }), el("div", { class: "row" }, [
      el("button", { type: "button", class: "act confirm", "data-act": "confirm", text: t("act.confirm"),
        onclick: () => { app.center = null; callDirector(st.on_turn || "A", "director"); ui.render(); } }),
      el("button", { type: "button", class: "act cancel", text: t("act.cancel"), onclick: () => { app.center = null; ui.render(); } })]));
  } else if (p.kind === "settings") {
    renderSettings(c);
  } else if (p.kind === "sheet") {
    renderSheet(c);
  }
}

/** The player's settings on this device. @param {HTMLElement} c */
function renderSettings(c) {
  const s = app.settings;
  c.append(el("h3", { id: "center-title", text: t("menu.settings") }));
  const lay = el("div", { class: "row wrap" }, [el("span", { class: "label", text: t("set.layout") })]);
  for (const v of ["auto", "stack", "side"]) {
    lay.append(el("button", { type: "button", class: "act" + (s.layout === v ? " on" : ""), text: t("set.layout." + v),
      onclick: () => { s.layout = v; saveSettings(); rerenderCenter(); } }));
  }
  /** @param {"swap"|"sound"|"vibrate"} key @param {string} label */
  const toggle = (key, label) => el("button", { type: "button", class: "act" + (s[key] ? " on" : ""), text: t(label) + ": " + t(s[key] ? "set.on" : "set.off"),
    onclick: () => { s[key] = !s[key]; saveSettings(); rerenderCenter(); } });
  const warn = /** @type {HTMLInputElement} */ (el("input", { type: "text", id: "warn", value: thresholds().map((x) => x / 1000).join(", "), inputmode: "numeric" }));
  const lang = el("div", { class: "row wrap" }, [el("span", { class: "label", text: t("set.language") })].concat(
    ["en", "it"].map((l) => el("button", { type: "button", class: "act" + (I18N.lang === l ? " on" : ""), "data-lang": l, text: I18N.STRINGS[l]["lang.name"],
      onclick: () => { I18N.setLang(l); forgetShown(); rerenderCenter(); } })),
    [el("button", { type: "button", class: "act", text: "⤢ " + t("set.fullscreen"), onclick: fullscreen })]));
  c.append(lay, lang, el("div", { class: "row wrap" }, [toggle("swap", "set.swap"), toggle("sound", "set.sound"), toggle("vibrate", "set.vibrate")]),
    el("label", { class: "row" }, [el("span", { class: "label", text: t("set.thresholds") }), warn]),
    el("p", { class: "hint", text: t("set.keys") }),
    ...sheetButton(),
    el("div", { class: "row" }, [
      el("button", { type: "button", class: "act go", text: t("set.save"), onclick: () => { saveThresholds(warn.value); app.center = null; ui.render(); } }),
      el("button", { type: "button", class: "close", text: t("act.close"), onclick: () => { app.center = null; ui.render(); } })]));
}

/** Keep the player's thresholds only when they differ from the table's (or
 * the link's): a later change by the director then reaches this device.
 * @param {string} text */
function saveThresholds(text) {
  const mine = parseThresholds(text, thresholds());
  if (mine.join() === thresholds(false).join()) delete app.settings.warnByTable[tableId];
  else app.settings.warnByTable[tableId] = mine;
  saveSettings();
}

/* A tournament match's score sheets (hand-entered results): each player
 * hands in theirs, the running score game by game ("1-0 1-2 3-2", optional)
 * and their own sheet PIN (from the director): the two players' own sheets
 * the same make the result; different, the trailing player's stands,
 * flagged; without a PIN a sheet waits for the director (docs/protocol.md). */
/** @returns {HTMLElement[]} */
function sheetButton() {
  if (!app.info || app.info.tournament_id == null) return [];
  return [el("div", { class: "row" }, [el("button", { type: "button", class: "act", id: "btn-sheet", text: t("sheet.open") + " …",
    onclick: () => { app.center = { kind: "sheet" }; rerenderCenter(); } })])];
}
/** @param {HTMLElement} c */
function renderSheet(c) {
  c.append(el("h3", { id: "center-title", text: t("sheet.open") }), ...sheetRows(),
    el("div", { class: "row" }, [el("button", { type: "button", class: "close", text: t("act.close"), onclick: () => { app.center = null; ui.render(); } })]));
}
/** @returns {HTMLElement[]} */
function sheetRows() {
  const nm = names();
  return /** @type {Side[]} */ (["A", "B"]).map((by) => {
    const games = /** @type {HTMLInputElement} */ (el("input", { type: "text", inputmode: "numeric", maxlength: "1200", "data-sheet-games": by,
      "aria-label": t("sheet.games", { name: nm[by] }), placeholder: t("sheet.games_hint") }));
    const pin = /** @type {HTMLInputElement} */ (el("input", { type: "password", inputmode: "numeric", autocomplete: "off", maxlength: "8",
      "data-sheet-pin": by, "aria-label": t("sheet.pin", { name: nm[by] }), placeholder: t("sheet.pin_hint") }));
    return el("div", { class: "row wrap", "data-sheet": by }, [
      el("span", { class: "label", text: t("sheet.of", { name: nm[by] }) }), games, pin].concat(/** @type {Side[]} */ (["A", "B"]).map((w) =>
      el("button", { type: "button", class: "act", "data-sheet-winner": w, text: t("sheet.won", { name: nm[w] }),
        onclick: () => sendSheet(by, nm[w], games.value, pin.value) }))));
  });
}
