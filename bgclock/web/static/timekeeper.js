// @ts-check
/* bgclock table page: the table's timekeeper claim, on this device.
 *
 * The server names the device that keeps the table's time in the table's
 * `info.link` (keeper_device, keeper_name, state); a device that is not the
 * keeper has its presses refused (`not_keeper`) until the time is handed
 * to it: it asks (`keep_request`), and the keeper's screen answers
 * (`keep_answer`) unless the keeper has been silent past the bound or the
 * director hands it over (docs/protocol.md "The time changes hands only with
 * consent").  This module shows who keeps the time, offers the request, puts
 * a request to the keeper's screen, and says when a flag is only the
 * server's estimate (`info.provisional`).  It draws one banner (#keeper) and owns nothing
 * else on the page (docs/pages.md "The timekeeper"). */
import { I18N, STRINGS } from "./timekeeper-strings.js";

/**
 * @typedef {{device: string, name: string, at_ms: number}} Ask
 * @typedef {{state?: string, keeper?: boolean, keeper_device?: string|null,
 *   keeper_name?: string|null, asks?: Ask[]}} Link
 * @typedef {{link?: Link, players?: string[],
 *   provisional?: {at_ms: number, side: string|null, key: string}|null}} Info
 */

/** The name this device gives itself: its table's, in the page's language
 * ("Tavolo 3", "Table 3"), which a player can read; the director may give
 * it another (`keep_give.name`).
 * @param {number} tableId @param {string=} lang @returns {string} */
export function deviceName(tableId, lang) {
  const words = /** @type {Object<string, Object<string, string>>} */ (STRINGS)[lang || I18N.lang] || STRINGS.en;
  return words["kp.device"].replace("{n}", String(tableId)).slice(0, 40);
}

/** What the table's info says of this device's claim.
 * @param {Info|null|undefined} info @param {string} device
 * @returns {{kept: boolean, mine: boolean, name: string, online: boolean}} */
export function keeperOf(info, device) {
  const link = (info && info.link) || {};
  const kept = !!link.keeper_device;
  return { kept: kept, mine: kept && link.keeper_device === device,
    name: link.keeper_name || "", online: link.state === "online" };
}

/**
 * The banner: mounted once, then `render(info)` on every snapshot or `table`
 * message, and `onMessage(msg)` on the answers to a request for the time.
 * `send(obj)` sends a message on the table's link.
 * @param {{device: string, send: function(Object): unknown, toast: function(string): void}} opts
 */
export function mountKeeper(opts) {
  const main = document.getElementById("clock") || document.body;
  let box = document.getElementById("keeper");
  if (!box) {
    box = document.createElement("div");
    box.id = "keeper";
    box.className = "keeper-banner";
    box.setAttribute("role", "status");
    box.hidden = true;
    // a row of its own at the top of the bar (the halves' controls never move under a tap)
    const bar = document.getElementById("bar");
    if (bar) bar.prepend(box); else main.append(box);
  }
  const banner = box;
  /** @type {string|null} */
  let lastKeeper = null;
  let sent = 0;
  const t = I18N.t;

  /** A message id of this device's. @param {string} kind @returns {string} */
  function nextId(kind) {
    sent += 1;
    return kind + "-" + opts.device.slice(-24) + "-" + Date.now().toString(36) + sent;
  }

  /** @param {string} act @param {string} text @param {function(): void} onclick */
  function button(act, text, onclick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tool keeper-" + act;
    b.dataset.act = act;
    b.textContent = text;
    b.onclick = onclick;
    return b;
  }

  /** @param {Info|null|undefined} info */
  function render(info) {
    const k = keeperOf(info, opts.device);
    const link = (info && info.link) || {};
    const keeperNow = link.keeper_device || null;
    if (lastKeeper !== null && keeperNow !== lastKeeper && keeperNow) {
      opts.toast(k.mine ? t("kp.mine") : t("kp.taken", { name: k.name }));
    }
    lastKeeper = keeperNow;
    banner.textContent = "";
    const provisional = info && info.provisional;
    /** @type {Node[]} */
    const parts = [];
    if (k.kept && !k.mine) {
      const line = document.createElement("span");
      line.className = "keeper-who";
      line.dataset.keeper = k.online ? "online" : "offline";
      line.textContent = t("kp.other", { name: k.name, state: t(k.online ? "kp.online" : "kp.offline") })
        + (k.online ? "" : " · " + t("kp.estimate"));
      const asks = link.asks || [];
      const waiting = asks.some((a) => a.device === opts.device);
      parts.push(line);
      if (waiting) {
        const wait = document.createElement("span");
        wait.className = "keeper-waiting";
        wait.dataset.ask = "pending";
        wait.textContent = t("kp.waiting", { name: k.name });
        parts.push(wait);
      }
      parts.push(button("keep", t(waiting ? "kp.ask_again" : "kp.ask"),
        () => { opts.send({ type: "keep_request", v: 1, id: nextId("kr") }); }));
    }
    if (k.mine) {
      // the keeper's screen: each request, in this page's language, yes or no
      for (const a of link.asks || []) {
        const ask = document.createElement("div");
        ask.className = "keeper-ask";
        ask.dataset.ask = a.device;
        const words = document.createElement("span");
        words.textContent = t("kp.asked", { name: a.name });
        /** @param {boolean} yes */
        const answer = (yes) => {
          opts.send({ type: "keep_answer", v: 1, id: nextId("ka"), device: a.device, yes: yes });
        };
        ask.append(words, button("keep-yes", t("kp.yes"), () => answer(true)),
          button("keep-no", t("kp.no"), () => answer(false)));
        parts.push(ask);
      }
    }
    if (provisional) {
      const players = (info && info.players) || ["A", "B"];
      const who = provisional.side === "B" ? players[1] : provisional.side === "A" ? players[0] : "";
      const line = document.createElement("span");
      line.className = "keeper-provisional";
      line.dataset.provisional = String(provisional.at_ms);
      line.textContent = t("kp.provisional", { name: who || "?" });
      parts.push(line);
    }
    banner.append(...parts);
    banner.hidden = parts.length === 0;
  }
  /** The answers to this device's request for the time. @param {{type: string, [field: string]: any}} msg */
  function onMessage(msg) {
    if (msg.type === "keep_granted") {
      opts.toast(t(msg.by === "silent" ? "kp.granted_silent" : msg.by === "director"
        ? "kp.granted_director" : "kp.mine", { name: msg.previous || "" }));
    } else if (msg.type === "keep_refused") {
      opts.toast(t(msg.by === "keeper" ? "kp.refused" : "kp.taken", { name: msg.keeper || "" }));
    }
    // a request waiting, or put to this screen, is the banner's (render): a
    // toast would cover its yes and no
  }
  return { render: render, onMessage: onMessage, element: banner };
}
