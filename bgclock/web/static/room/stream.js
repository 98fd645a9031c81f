// @ts-check
/* bgclock room display: its link.  It listens to
 * /api/tournaments/{id}/room.stream (server-sent events: the room's whole
 * view now, then after every change) and, while the stream is not open
 * (reconnecting, refused, or no EventSource), reads room.json instead. */
import { credential, received, tournamentId, ui, view } from "./state.js";

export async function poll() {
  try {
    const r = await fetch("/api/tournaments/" + tournamentId + "/room.json?" + credential());
    const data = await r.json();
    if (!r.ok) throw new Error(data.message || String(r.status));
    received(data);
  } catch (e) {
    view.failed = true;
  }
  ui.render();
}

/** The pushed room (null: not opened, or no EventSource in this browser).
 * @type {EventSource|null} */
let stream = null;

export function listen() {
  if (typeof EventSource === "undefined") return;
  stream = new EventSource("/api/tournaments/" + tournamentId + "/room.stream?" + credential());
  stream.addEventListener("room", (e) => {
    try {
      received(JSON.parse(/** @type {MessageEvent} */ (e).data));
    } catch (err) {
      view.failed = true;
    }
    document.body.dataset.pushed = String(Number(document.body.dataset.pushed || 0) + 1);
    ui.render();
  });
}

/** Read room.json only while the stream is not open. */
export function pollUnlessPushed() {
  if (stream === null || stream.readyState !== 1) poll();
}

