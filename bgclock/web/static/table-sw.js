// @ts-check
/* bgclock: the table page's service worker (docs/pages.md, "What survives a
 * reload"; registered only over TLS, by table/worker.js).
 *
 * Network first, the cache when the network fails: a table page, its
 * scripts, styles and icons, as last fetched, so that a reload with the
 * Wi-Fi gone still opens the clock (which then comes back from the device's
 * storage, device-store.js).  The API, the WebSocket and anything from
 * another origin are never cached or answered here. */
/// <reference lib="webworker" />

const CACHE = "bgclock-table-v1";
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", () => { sw.skipWaiting(); });
sw.addEventListener("activate", (e) => { e.waitUntil(sw.clients.claim()); });

/** Is `url` a file of the table page (never the API or the socket)? @param {URL} url */
function cacheable(url) {
  if (url.origin !== sw.location.origin) return false;
  return url.pathname.startsWith("/t/") || url.pathname.startsWith("/static/");
}

sw.addEventListener("fetch", (e) => {
  const req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || !cacheable(url)) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(req);
      if (res.ok) await cache.put(req, res.clone());
      return res;
    } catch (err) {
      const hit = await cache.match(req);
      if (hit) return hit;
      throw err;
    }
  })());
});
