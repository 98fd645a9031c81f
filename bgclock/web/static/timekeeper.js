// @ts-check
/* bgclock table page: the table's timekeeper claim, on this device.
 *
 * The server names the device that keeps the table's time in the table's
 * `info.link` (keeper_device, keeper_name, state); a device that is not the
 * keeper has its presses refused (`not_keeper`) until it sends `keep`
 * ("Keep the time on this device").  This module shows who keeps the time,
 * offers the claim, and says when a flag is only the server's estimate
 * (`info.provisional`).  It draws one banner (#keeper) and owns nothing
 * else on the page (docs/pages.md "The timekeeper"). */
import { I18N } from "./timekeeper-strings.js";

/**
 * @typedef {{state?: string, keeper?: boolean, keeper_device?: string|null,
 *   keeper_name?: string|null}} Link
 * @typedef {{link?: Link, players?: string[],
 *   provisional?: {at_ms: number, side: string|null, key: string}|null}} Info
 */

/** A short name for this device: its browser's family on its system, and
 * the last 4 characters of its id ("Android Chrome ·3f9a").
 * @param {string} id @param {string=} ua @returns {string} */
export function deviceName(id, ua) {
  const agent = ua === undefined ? (globalThis.navigator ? globalThis.navigator.userAgent : "") : ua;
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad|iPod/.test(agent) ? "iOS"
    : /Windows/.test(agent) ? "Windows" : /Mac OS X/.test(agent) ? "Mac" : /Linux/.test(agent) ? "Linux" : "";
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox"
    : /(Chrome|Chromium|CriOS)\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "";
  const family = [system, browser].filter(Boolean).join(" ") || "device";
  return (family + " ·" + id.slice(-4)).slice(0, 40);
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
 * message.  `send(obj)` sends a message on the table's link.
 * @param {{device: string, send: function(Object): unknown, toast: function(string): void,
 *   confirm?: function(string): boolean}} opts
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
      const claim = document.createElement("button");
      claim.type = "button";
      claim.className = "tool keeper-claim";
      claim.dataset.act = "keep";
      claim.textContent = t("kp.claim");
      claim.onclick = () => {
        const ask = opts.confirm || ((/** @type {string} */ q) => globalThis.confirm(q));
        if (!ask(t("kp.claim_ask", { name: k.name }))) return;
        sent += 1;
        opts.send({ type: "keep", v: 1, id: "keep-" + opts.device.slice(-24) + "-" + Date.now().toString(36) + sent });
      };
      parts.push(line, claim);
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
  return { render: render, element: banner };
}
