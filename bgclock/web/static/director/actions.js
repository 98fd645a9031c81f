// @ts-check
/* bgclock dashboard: what the director does: open a table, mark an alert
 * handled, and the commands, each confirmed in a dialog (kit/confirm.js). */
import { confirmId, stableId } from "../alerts.js";
import { api } from "../kit/api.js";
import { openConfirm } from "../kit/confirm.js";
import { t } from "../kit/i18n.js";
import { $, app, inFlight, ui } from "./state.js";
import { conn } from "./link.js";

/** @typedef {import("./state.js").Alert} Alert */

/* The director marks an alert handled: the server stores it and tells every
 * dashboard; this one hides it at once (and shows it again if the server refuses). */
/** @param {Alert} a */
export function markHandled(a) {
  const id = conn.send({ table: a.table, key: a.key }, null, "handle", stableId("hd", [a.key]));
  app.handling[id] = a.key;
  ui.render();
}
/* The director hands a table's time to a device that asks for it (protocol:
 * The time changes hands only with consent), naming it if they wish. */
/** @param {number} table @param {string} device @param {string} name */
export function giveTime(table, device, name) {
  const given = (globalThis.prompt(t("card.give_name"), name) || "").trim().slice(0, 40);
  /** @type {Object<string, any>} */
  const fields = { table: table, device: device };
  if (given && given !== name) fields.name = given;
  conn.send(fields, null, "keep_give", stableId("kg", [String(table), device]));
}
/** Open table `id`'s detail. @param {number} id */
export function select(id) {
  app.selected = id;
  app.confirm = null;
  app.result = "";
  app.suggest = null;
  app.log = { table: id, events: [], notes: [] };
  refreshLog();
  ui.render();
  if (window.innerWidth < 1100) $("detail").scrollIntoView({ block: "start" });
}
/** @type {ReturnType<typeof setTimeout>|undefined} */
let logTimer;
export function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(async () => {
    const id = app.selected;
    if (id == null) return;
    try {
      const data = await api("GET", "/api/tables/" + id + "/log.json");
      if (app.selected === id) { app.log = { table: id, events: data.events || [], notes: data.notes || [] }; ui.renderLog(); }
    } catch (e) { /* shown next time */ }
  }, 80);
}

/* The director's commands: each needs a confirmation, in a dialog (confirm.js)
 * whose Confirm button is away from the opener and deaf for a moment. */
/* handles: an alert's key, marked handled by the server with the accepted
 * command (`handles`, in the same commit), for every dashboard; the
 * commands of an alert's fix and the rulings have ids derived from what
 * they settle (alerts.js confirmId), so a confirmation sent from two
 * dashboards, or twice, is applied once;
 * send: instead of commands, an HTTP request (closing a table). */
/** @type {{x: number, y: number, target: EventTarget|null}|null} */
let lastClick = null;
document.addEventListener("click", (e) => { lastClick = { x: e.clientX, y: e.clientY, target: e.target }; }, true);
/** @param {string} text @param {Object<string, any>[]} cmds @param {string|null} [handles]
 * @param {() => Promise<unknown>} [send] */
export function askConfirm(text, cmds, handles, send) {
  app.confirm = { text: text, cmds: cmds, handles: handles };
  app.result = "";
  const opener = lastClick && lastClick.target instanceof Element ? lastClick.target.closest("button") : null;
  openConfirm({ text: t("det.confirm", { what: text }), confirmLabel: t("act.confirm"), cancelLabel: t("act.cancel"),
    busyLabel: t("dir.sending"), opener: opener, point: lastClick,
    onConfirm: send || (() => app.selected != null ? doConfirmed(app.selected, cmds, handles) : null) });
  ui.renderDetail();
}
/* Send the commands; settles when every one has its ack or error (or after 8 s: queued offline). */
/** @param {number} table @param {Object<string, any>[]} cmds @param {string|null} [handles] @returns {Promise<void>} */
export function doConfirmed(table, cmds, handles) {
  app.confirm = null;
  app.resultErr = false;
  return new Promise((/** @type {(value?: void) => void} */ resolve) => {
    inFlight.ids = new Set();
    inFlight.done = resolve;
    const row = app.tables[table], seq = row ? row.seq : null;
    cmds.forEach((cmd, i) => {
      const last = i === cmds.length - 1;
      const fields = Object.assign({ table: table }, cmd, handles && last ? { handles: handles } : {});
      const id = conn.send(fields, null, "cmd", confirmId(/** @type {{do: string}} */ (cmd), { table: table, seq: seq, handles: handles || null, index: i }) || undefined);
      inFlight.ids.add(id);
    });
    if (!inFlight.ids.size) resolve();
    setTimeout(resolve, 8000);
    ui.renderDetail();
  });
}
export function closeDetail() {
  app.selected = null;
  app.suggest = null;
  ui.render();
}
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || document.querySelector("dialog[open]") || app.selected == null) return;
  closeDetail();
});

