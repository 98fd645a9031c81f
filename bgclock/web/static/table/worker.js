// @ts-check
/* bgclock: the table page's service worker, over TLS only (docs/pages.md,
 * "What survives a reload"; the worker is ../table-sw.js, served at
 * /table-sw.js).  The page's own files loaded before the worker ran, so they
 * are put in its cache here. */

export const CACHE = "bgclock-table-v1";

/**
 * Register the worker where the page is served over https; what happened:
 * "registered", "insecure" (http://: not tried) or "failed: why".
 * @param {Location} where @returns {Promise<string>}
 */
export async function registerTableWorker(where) {
  if (where.protocol !== "https:" || !("serviceWorker" in navigator)) return "insecure";
  try {
    await navigator.serviceWorker.register("/table-sw.js", { scope: "/t/" });
    await navigator.serviceWorker.ready;
    const files = performance.getEntriesByType("resource").map((r) => r.name)
      .filter((u) => u.startsWith(where.origin + "/static/"));
    const cache = await caches.open(CACHE);
    await cache.addAll([where.href, ...files]);
    return "registered";
  } catch (e) {
    return "failed: " + String(e instanceof Error ? e.message : e);
  }
}
