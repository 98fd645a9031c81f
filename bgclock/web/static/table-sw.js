// @ts-check
/* bgclock: the table page's service worker (docs/pages.md, "What survives a
 * reload"; registered in a secure context only, by table/worker.js).
 *
 * The table page and its files, as last fetched, so that a reload with the
 * Wi-Fi or the server gone still opens the clock (which then comes back from
 * the device's storage, device-store.js):
 * - the page itself (a navigation) and the versioned files
 *   (/static/v/<version>/...) come from the cache at once when it has them,
 *   and are fetched again behind them for the next time: a reload never
 *   waits on a server that is down, or on a link that swallows what it is
 *   sent (the browser's own error came after 37 s there);
 * - anything else under /static/ (the manifest, icons) is asked of the
 *   network first, the cache answering when it fails or is slow.
 * The API, the WebSocket and anything from another origin are never cached
 * or answered here. */
/// <reference lib="webworker" />

const CACHE = "bgclock-table-v1";
/** How long a file that is not versioned waits for the network before the cache answers. */
const NETWORK_WAIT_MS = 3000;
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", () => { sw.skipWaiting(); });
sw.addEventListener("activate", (e) => { e.waitUntil(sw.clients.claim()); });

/** Is `url` a file of the table page (never the API or the socket)? @param {URL} url */
function cacheable(url) {
  if (url.origin !== sw.location.origin) return false;
  return url.pathname.startsWith("/t/") || url.pathname.startsWith("/static/");
}

/** Is `req` answered from the cache first: the page, or a file whose URL
 * names its version? @param {Request} req @param {URL} url */
function cacheFirst(req, url) {
  return req.mode === "navigate" || url.pathname.startsWith("/static/v/");
}

/** The cached answer to `req`, or undefined when there is none.
 * @param {Request} req @returns {Promise<Response|undefined>} */
async function cached(req) {
  return (await caches.open(CACHE)).match(req);
}

/** The table's snapshot the server puts in the page (#table-boot). */
const BOOT = /(<script type="application\/json" id="table-boot">)[^<]*(<\/script>)/;

/** The page as the cache keeps it: without the table's snapshot, which is
 * the table of that instant (a reload from the cache draws the device's own
 * kept state instead, device-store.js). @param {Response} res @returns {Promise<Response>} */
async function withoutBoot(res) {
  const text = await res.text();
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(text.replace(BOOT, "$1null$2"),
    { status: res.status, statusText: res.statusText, headers: headers });
}

sw.addEventListener("fetch", (e) => {
  const req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || !cacheable(url)) return;
  /* Always asked of the network: a good answer refreshes the cache. */
  const fresh = fetch(req).then(async (res) => {
    if (res.ok) {
      const kept = req.mode === "navigate" ? await withoutBoot(res.clone()) : res.clone();
      await (await caches.open(CACHE)).put(req, kept);
    }
    return res;
  });
  e.waitUntil(fresh.then(() => undefined, () => undefined));
  e.respondWith((async () => {
    if (cacheFirst(req, url)) return (await cached(req)) || fresh;
    /** @type {Promise<"slow">} */
    const slow = new Promise((resolve) => setTimeout(() => resolve("slow"), NETWORK_WAIT_MS));
    try {
      const first = await Promise.race([fresh, slow]);
      if (first !== "slow") return first;
      return (await cached(req)) || fresh;
    } catch (err) {
      const hit = await cached(req);
      if (hit) return hit;
      throw err;
    }
  })());
});
