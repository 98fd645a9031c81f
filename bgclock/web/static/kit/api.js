// @ts-check
/* bgclock: the server's HTTP API from a page: JSON in and out, a refusal
 * decoded into an error that keeps its stable code and fields (the screens
 * say it in their language). */

/** A refusal of the API: its words, its stable code and its fields.
 * @typedef {Error & {code?: string, params?: Object<string, (string|number)>, status?: number}} ApiError */

/**
 * One request: `body` sent as JSON (or as text of content type `type`), the
 * answer's JSON (or text) returned; a refusal is thrown as an ApiError.
 * `auth`: the bearer credential ("" for none).
 * @param {string} method @param {string} path @param {any} [body] @param {string} [type]
 * @param {string} [auth]
 * @returns {Promise<any>}
 */
export async function request(method, path, body, type, auth) {
  /** @type {Object<string, string>} */
  const headers = {};
  if (auth) headers.Authorization = "Bearer " + auth;
  if (body !== undefined) headers["Content-Type"] = type || "application/json";
  const r = await fetch(path, {
    method: method, headers: headers, cache: "no-store",
    body: body === undefined ? undefined : (type ? String(body) : JSON.stringify(body))
  });
  const json = (r.headers.get("content-type") || "").indexOf("json") >= 0;
  const data = json ? await r.json() : await r.text();
  if (!r.ok) {
    const err = /** @type {ApiError} */ (new Error((data && data.message) || String(r.status)));
    err.code = data && data.error;
    err.params = (data && data.params) || {};
    err.status = r.status;
    throw err;
  }
  return data;
}

/**
 * A series of reads of which only the newest one's answer is to be shown
 * (an older answer, come last, would show what was there before it): each
 * call starts a read and returns the function that says, once its answer
 * is in, whether it is still the newest one asked.
 * @returns {function(): function(): boolean}
 */
export function newestOnly() {
  let asked = 0;
  return () => {
    const mine = ++asked;
    return () => mine === asked;
  };
}

/**
 * The director's API.  The credential is the director's session cookie
 * (the server exchanged the printed link's key for it and dropped the key
 * from the address: docs/architecture.md, "The director's session"), so no
 * page, link or export of the dashboard carries the key.
 * @param {string} method @param {string} path @param {any} [body] @param {string} [type]
 * @returns {Promise<any>}
 */
export function api(method, path, body, type) { return request(method, path, body, type, ""); }
