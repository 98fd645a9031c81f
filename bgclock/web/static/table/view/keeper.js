// @ts-check
/* bgclock table page: the banner saying who keeps the table's time, the
 * claim, a provisional flag (timekeeper.js). */
import { mountKeeper } from "../../timekeeper.js";
import { ui } from "../state.js";
import { conn, device } from "../link.js";

export const keeper = mountKeeper({ device: device, send: (m) => conn.sendRaw(m), toast: (x) => ui.toast(x) });
