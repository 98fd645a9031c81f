// @ts-check
/* bgclock table page: the table's link to the server (kit/link.js) and the
 * table's time line as this device reads it. */
import { deviceName } from "../timekeeper.js";
import { Connection, deviceId, wsUrl } from "../kit/link.js";
import { app, tableId, token, ui } from "./state.js";

/** This device's id (kept across reloads: the timekeeper's claim names it). */
export const device = deviceId();

/** The one link of the page: messages go to main.js's handler (set there). */
export const conn = new Connection({
  url: wsUrl(),
  prefix: "t" + tableId + "-",
  hello: () => {
    /** @type {Object<string, any>} */
    const h = { type: "hello", v: 1, token: token, name: deviceName(tableId) };
    if (app.seq != null) h.last_seq = app.seq;
    return h;
  },
  onStatus: (status, queued) => ui.status(status, queued),
  device: device,
  createdMs: () => (app.info && typeof app.info.created_ms === "number" ? app.info.created_ms : null)
});

/** The table's line (ms since the table was created, the server's time
 * line) at device instant t: from the offset the pings measure, else from
 * the last snapshot. @param {number} t @returns {number|null} */
export function tableNow(t) {
  const v = conn.tableMs(t);
  if (v != null) return v;
  return app.anchor ? app.anchor.ms + (t - app.anchor.perf) : null;
}
