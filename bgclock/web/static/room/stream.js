// @ts-check
/* bgclock room display: its link.  It listens to
 * /api/tournaments/{id}/room.stream (server-sent events: the room's whole
 * view now, then after every change) and, while the stream is not open
 * (reconnecting, refused, or no EventSource), reads room.json instead. */
import { credential, received, tournamentId, ui, view } from "./state.js";

/** The pushed room (null: not opened, or no EventSource in this browser).
 * @type {EventSource|null} */
let stream = null;
/** The views the stream has given since it last opened. */
let pushedSinceOpen = 0;

/** Whether the stream owns the view: it is open and has given a view since
 * it opened.  A read of room.json answered then was asked before it
 * opened: its view is older than the one shown, or no newer than one the
 * stream will push (every change after the stream's first view is pushed),
 * so it is dropped; shown, it would hide a result until the next change. */
function streamOwns() {
  return stream !== null && stream.readyState === 1 && pushedSinceOpen > 0;
}

export async function poll() {
  /** @type {any} */ let data = null;
  try {
    const r = await fetch("/api/tournaments/" + tournamentId + "/room.json?" + credential());
    const body = await r.json();
    if (r.ok) data = body;
  } catch (e) { /* shown as failed, below */ }
  if (streamOwns()) return;
  if (data) received(data); else view.failed = true;
  ui.render();
}

export function listen() {
  if (typeof EventSource === "undefined") return;
  stream = new EventSource("/api/tournaments/" + tournamentId + "/room.stream?" + credential());
  stream.addEventListener("open", () => { pushedSinceOpen = 0; });
  stream.addEventListener("room", (e) => {
    pushedSinceOpen += 1;
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

