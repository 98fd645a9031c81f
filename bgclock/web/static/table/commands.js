// @ts-check
/* bgclock table page: what a player's tap sends.  Every clock command is
 * applied to the device's match at the instant of the tap and sent with it
 * (queued while the link is down); the rules refuse it here, at once, when
 * they would refuse it on the server. */
import { I18N, t } from "../kit/i18n.js";
import { unlockAudio, vibrate } from "../kit/sound.js";
import { app, tableId, token, ui } from "./state.js";
import { conn, tableNow } from "./link.js";
import { display, engineReady } from "./match.js";

/** @typedef {import("../kit/types.js").Side} Side */
/** @typedef {Object<string, any>} Command the fields of a clock script step */

/** A command tapped now. @param {Command} cmd @returns {string|null} its id, or null if refused here */
export function command(cmd) {
  unlockAudio();
  return send(cmd, performance.now());
}

/** Every clock command goes here: applied to the device's match at the
 * instant `at` (performance.now() of the tap) and sent with it; refused at
 * once, and not sent, when the rules refuse it.  Without the engine (its
 * log not loaded yet) the server decides alone.
 * @param {Command} cmd @param {number} at @returns {string|null} its id, or null if refused here */
export function send(cmd, at) {
  if (app.decided) {  // the director entered the result by hand: the match is closed here
    ui.toast(t("err.illegal", { m: I18N.refusal({ refusal: "decided_by_hand", params: { name: app.decided.name } }) }), sideOf(cmd));
    ui.render();
    return null;
  }
  const eng = engineReady() ? app.engine : null;
  const ms = eng ? tableNow(at) : null;
  if (!eng || ms == null) return conn.send(cmd, at);
  const err = eng.check(cmd, ms);
  if (err) {
    const e = /** @type {{code?: string, params?: Object<string, any>, message: string}} */ (err);
    ui.toast(t("err.illegal", { m: I18N.refusal({ refusal: e.code, params: e.params, message: e.message }) }), sideOf(cmd));
    ui.render();
    return null;
  }
  const atMs = eng.instant(ms);
  const id = conn.send(cmd, at, "cmd", undefined, atMs);
  const who = sideOf(cmd);
  if (who) app.sides.set(id, who);
  eng.apply(id, cmd, atMs);
  ui.render();
  return id;
}

/** The player a command is by (whose half a refusal faces), or null.
 * @param {Command} cmd @returns {Side|null} */
export function sideOf(cmd) {
  const s = cmd.do === "game_over" ? cmd.winner : cmd.side;
  return s === "A" || s === "B" ? s : null;
}

/** Summon the director (USBGF 4.1, BIBA 4.6: the player on turn stops both
 * clocks and summons the Director): a stop with reason `director` while the
 * clocks run, then the `summon` message saying why and who.
 * @param {Side} side @param {string} why @returns {string} the summons' id */
export function callDirector(side, why) {
  const d = display();
  if (d && d.state.phase === "playing") command({ do: "stop", side: side, reason: "director" });
  unlockAudio();
  return conn.summon({ why: why, side: side });
}

/** ❚❚ Stop: one tap stops both clocks at that instant (a `stop` with
 * reason `other`, sent at once with the tap's instant); the reason is
 * asked afterwards.  The protocol cannot change a stored stop's reason: a
 * reason that calls the director (director, dispute, a premature action)
 * sends a `summon`, stored in the table's log; the others are shown on
 * this page (docs/protocol.md, "Stopping the clocks").
 * @param {Side|null} side @returns {boolean} */
export function stopNow(side) {
  const d = display();
  if (!d || app.closed || d.state.phase !== "playing") return false;
  const who = side || d.state.on_turn || "A";
  command({ do: "stop", side: who, reason: "other" });
  app.center = { kind: "stop", side: who };
  ui.render();
  return true;
}

/** A player hits the clock: only the running side's press counts (a press
 * on the idle half does nothing, a second press is ignored).
 * @param {Side} side @returns {boolean} */
export function press(side) {
  unlockAudio();
  ui.wake();
  const d = display();
  if (!d || app.closed) return false;
  const st = d.state;
  if (st.phase !== "playing" || !st[side].running || st.double_offered_by || st.game === 0) return false;
  const at = performance.now();
  let id;
  if (engineReady()) {
    id = send({ do: "hit", side: side }, at);
    if (id == null) return false;
  } else {
    id = conn.send({ do: "hit", side: side }, at);
    app.hits.push({ id: id, side: side, at: at });
  }
  app.presses.push([performance.timeOrigin + at, id]);
  if (app.presses.length > 500) app.presses.shift();
  if (app.settings.vibrate) vibrate(25);
  ui.render();
  return true;
}

/** "1-0 1-2, 3-2" -> [[1,0],[1,2],[3,2]]; null when a line is not "a-b".
 * @param {string} text @returns {number[][]|null} */
export function parseGames(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const out = [];
  for (const p of parts) {
    const m = /^(\d{1,3})[-–:](\d{1,3})$/.exec(p);
    if (!m) return null;
    out.push([Number(m[1]), Number(m[2])]);
  }
  return out;
}

/** A player's score sheet of a tournament match (docs/protocol.md): who
 * hands it in, the winner's name, the games ("1-0 1-2"), the sheet's PIN.
 * @param {Side} by @param {string} winner @param {string} gamesText @param {string} pin */
export async function sendSheet(by, winner, gamesText, pin) {
  /** @type {Object<string, any>} */
  const body = { by: by, winner: winner };
  const games = parseGames(gamesText || "");
  if (games === null) { ui.toast(t("sheet.bad_games")); return; }
  if (games.length) body.games = games;
  if (pin) body.pin = pin.trim();
  try {
    const r = await fetch("/api/tables/" + tableId + "/sheet?token=" + encodeURIComponent(token || ""), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) { ui.toast(data.message || String(r.status)); return; }
    const done = data.done[0];
    ui.toast(done.final ? (done.outcome === "trailing" ? t("sheet.trailing") : t("sheet.final"))
      : done.outcome === "director" ? (done.mismatch ? t("sheet.mismatch") : t("sheet.unconfirmed"))
      : t("sheet.kept"));
  } catch (e) { ui.toast(String(e)); }
}
