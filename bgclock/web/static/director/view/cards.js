// @ts-check
/* bgclock dashboard: the alerts (each with its one-click fix) and the
 * tables' cards, by tournament; the link's line. */
import { sortAlerts } from "../../alerts.js";
import { el } from "../../kit/dom.js";
import { fmtClock } from "../../kit/format.js";
import { I18N, t } from "../../kit/i18n.js";
import { beep } from "../../kit/sound.js";
import { api } from "../../kit/api.js";
import { $, SIDES, app, errText, isLow, names, presets, tableName, title } from "../state.js";
import { alertsOf } from "../attention.js";
import { roundForecast, tableForecast } from "../forecast.js";
import { askConfirm, giveTime, markHandled, select } from "../actions.js";

/** @typedef {import("../state.js").Row} Row */
/** @typedef {import("../state.js").Alert} Alert */

/* An alert's one-click fix: open the ruling, resume, or propose the break's penalty. */
/** @param {Row} row @param {Alert} a @returns {HTMLElement|null} */
export function fixOf(row, a) {
  const id = row.info.id, n = names(row);
  if (a.kind === "flag" || a.kind === "dispute" || a.kind === "dispute_expiry") {
    return el("button", { type: "button", class: "go", "data-act": "fix-ruling", text: t("alw.fix_ruling"), onclick: () => {
      select(id);
      const act = document.getElementById("actions");
      if (act) act.scrollIntoView({ block: "start" });
    } });
  }
  if (a.kind === "director") {
    return el("button", { type: "button", class: "go", "data-act": "fix-resume", text: t("det.resume"), onclick: () => {
      select(id);
      askConfirm(t("det.resume") + " — " + title(row), [{ do: "resume" }], a.key);
    } });
  }
  if (a.kind === "break_over" && a.overrun) {
    const o = a.overrun;
    return el("button", { type: "button", class: "go", "data-act": "fix-break", text: t("alw.fix_break", { t: fmtClock(o.ms) }), onclick: () => {
      select(id);
      askConfirm(t("alw.fix_break_confirm", { name: n[o.side], t: fmtClock(o.ms) }),
        [{ do: "adjust", side: o.side, delta_ms: -o.ms }], a.key);
    } });
  }
  return null;
}
/* --------------------------------------------------------- rendering */
/** @param {string} status @param {number} [queued] */
export function renderConn(status, queued) {
  const c = $("conn");
  c.dataset.status = status;
  let text = t("conn." + status);
  if (queued && queued > 0 && status !== "online") text += " · " + t("conn.queued", { n: queued });
  const line = c.querySelector(".conn-text");
  if (line) line.textContent = text;
}
/** The alerts as last drawn, as a string: the list is drawn again only when it changes. */
let alertsShown = "";

export function renderAlerts() {
  const list = $("alert-list");
  const all = [];
  for (const id of Object.keys(app.tables)) {
    const row = app.tables[id];
    if (row.info && row.info.status === "closed") continue;
    all.push(...alertsOf(row));
  }
  const sorted = /** @type {Alert[]} */ (sortAlerts(all));
  const shown = JSON.stringify([I18N.lang, sorted.map((a) => [a.table, a.kind, a.key, a.text, a.premature || "",
    a.overrun || null, title(app.tables[String(a.table)])]),
  Object.keys(app.tournaments).map((tid) => app.tournaments[tid].clashes || [])]);
  if (shown === alertsShown && list.isConnected) return;
  alertsShown = shown;
  list.replaceChildren();
  let n = 0;
  for (const a of sorted) {
    const id = String(a.table), row = app.tables[id];
    {
      n += 1;
      if (!app.alertsSeen.has(a.key)) { app.alertsSeen.add(a.key); beep(2, 120); }
      const premature = a.premature;
      const confirm = premature ? el("button", { type: "button", "data-act": "confirm-premature",
        text: t("dir.confirm_premature", { name: names(row)[premature] }),
        onclick: () => {
          select(Number(id));
          askConfirm(t("det.premature") + " " + names(row)[premature], [{ do: "premature", side: premature }], a.key);
        } }) : null;
      list.append(el("div", { class: "alert", "data-kind": a.kind, "data-table": id }, [
        el("span", { class: "grow", text: tableName(row) + ": " + a.text }),
        confirm || fixOf(row, a),
        el("button", { type: "button", "data-act": "open", text: t("dir.open"), onclick: () => select(Number(id)) }),
        el("button", { type: "button", "data-act": "handled", text: t("dir.ack"), onclick: () => markHandled(a) })
      ]));
    }
  }
  n += renderClashes(list);
  if (!n) list.append(el("p", { class: "hint", text: t("dir.no_alerts") }));
  $("alerts").classList.toggle("has", n > 0);
}

/** A clash's match in the director's language ("Main R1 match 2": the
 * server's label). @param {string} label @returns {string} */
export function matchLabel(label) {
  const m = /^(Main|Consolation|Last Chance|Losers|Final) R(\d+) match (\d+)$/.exec(label);
  if (!m) return label;
  return t("alw.clash_match", { event: t("tbl.event." + m[1].toLowerCase().replace(" ", "_")), r: m[2], m: m[3] });
}

/** The tournaments' clashes not dismissed (a table's result disagreeing with
 * the one held, both named), most urgent with the results' conflicts: the
 * director keeps the held result (dismiss) or opens the tournament to
 * correct it. @param {HTMLElement} list @returns {number} how many */
function renderClashes(list) {
  let n = 0;
  for (const tid of Object.keys(app.tournaments)) {
    const tn = app.tournaments[tid];
    for (const c of /** @type {any[]} */ (tn.clashes || [])) {
      n += 1;
      const key = "clash:" + tid + ":" + c.clash;
      if (!app.alertsSeen.has(key)) { app.alertsSeen.add(key); beep(2, 120); }
      const score = (/** @type {number[]|null|undefined} */ s) => (s ? " (" + s[0] + "–" + s[1] + ")" : "");
      const text = t("alw.clash", { table: c.table, match: matchLabel(c.match), clock: c.clock.winner + score(c.clock.score),
        held: c.held.winner + score(c.held.score), source: t("alw.source." + c.held.source) });
      const msg = el("span", { class: "hint", role: "status" });
      list.append(el("div", { class: "alert", "data-kind": "clash", "data-clash": String(c.clash), "data-tournament": tid }, [
        el("span", { class: "grow", text: tn.name + " · " + text }),
        el("button", { type: "button", class: "go", "data-act": "open-tournament", text: t("alw.clash_open"), onclick: () => {
          const b = document.getElementById("btn-tourney");
          if (b) b.click();
        } }),
        el("button", { type: "button", "data-act": "keep-held", text: t("alw.clash_keep", { name: c.held.winner }), onclick: async () => {
          try {
            await api("POST", "/api/tournaments/" + tid + "/clashes/" + c.clash + "/dismiss", {});
            tn.clashes = (tn.clashes || []).filter((/** @type {any} */ x) => x.clash !== c.clash);
            renderAlerts();
          } catch (e) { msg.textContent = errText(e); }
        } }),
        msg
      ]));
    }
  }
  return n;
}

/** Each table's card as last drawn, with what it was drawn from (its key)
 * and its two clocks, which the page's frame loop updates in place.
 * @type {Map<number, {key: string, node: HTMLElement, clocks: Object<string, HTMLElement|null>}>} */
let drawn = new Map();
/** The grid's shape as last drawn: the tournaments, their names and their tables in order. */
let drawnShape = "";

/** What a table's card is drawn from, as a string: the card is drawn again
 * only when it changes.  It holds the time-dependent parts too (how long a
 * device has been offline, to the second; a recent reconciliation).
 * @param {Row} row @param {Alert[]} alerts the table's @returns {string} */
function cardKey(row, alerts) {
  const link = row.info.link;
  const offline = link && link.state === "offline" && link.offline_since_ms != null
    ? Math.floor(Math.max(0, Date.now() - link.offline_since_ms) / 1000) : null;
  const fresh = !!(link && link.reconciled && Date.now() - link.reconciled.at_ms < 10 * 60000);
  return JSON.stringify([row.state, row.info, app.selected === row.info.id, offline, fresh,
    alerts.map((a) => [a.kind, a.badge || ""]), I18N.lang, tableForecast(row.info.tournament_id || 0, row.info.id)]);
}

/** The tables' cards by tournament.  A card is drawn again only when what it
 * is drawn from changed (cardKey); when the tables and tournaments are the
 * ones already shown, only those cards are swapped, so an update of one
 * table costs one card, not the room's.  `only`: the tables updated (the
 * others' cards are not looked at), when the grid's shape is unchanged.
 * @param {Set<number>} [only] */
export function renderCards(only) {
  const box = $("tournaments");
  /** @type {Object<string, Row[]>} */
  const byT = {};
  for (const id in app.tables) {
    const row = app.tables[id], tid = (row.info && row.info.tournament_id) || 0;
    (byT[tid] = byT[tid] || []).push(row);
  }
  const tids = Object.keys(byT).sort((a, b) => Number(a) - Number(b));
  // a tournament's finished tables after its running ones, each folded to a line (folds)
  for (const tid of tids) byT[tid].sort((a, b) => Number(folds(a)) - Number(folds(b)) || a.info.id - b.info.id);
  const shape = JSON.stringify([I18N.lang, tids.map((tid) => [tid, app.tournaments[tid] ? app.tournaments[tid].name : "",
    roundForecast(Number(tid)), byT[tid].map((row) => row.info.id)])]);
  /** @type {typeof drawn} */
  const now = new Map();
  /** The card of `row`: the one drawn before if what it is drawn from is unchanged.
   * @param {Row} row */
  const cardOf = (row) => {
    const id = row.info.id, alerts = alertsOf(row), key = cardKey(row, alerts), had = drawn.get(id);
    const got = had && had.key === key ? had : withClocks(id, key, card(row, alerts));
    now.set(id, got);
    return got;
  };
  if (shape === drawnShape && box.isConnected) {
    // the same tables in the same places: swap the cards that changed
    for (const tid of tids) for (const row of byT[tid]) {
      const id = row.info.id, had = drawn.get(id);
      if (only && had && !only.has(id)) { now.set(id, had); continue; }
      const got = cardOf(row);
      if (had && got !== had) had.node.replaceWith(got.node);
    }
  } else {
    box.replaceChildren();
    if (!tids.length) box.append(el("p", { class: "hint", text: t("dir.no_tables") }));
    for (const tid of tids) {
      const tn = app.tournaments[tid];
      const grid = el("div", { class: "grid" });
      const round = roundForecast(Number(tid));
      box.append(el("div", { class: "tourn" }, [el("h3", { text: tn ? tn.name : "#" + tid }),
        ...(round ? [el("p", { class: "hint", "data-round-forecast": tid, text: round })] : []), grid]));
      for (const row of byT[tid]) grid.append(cardOf(row).node);
    }
    drawnShape = shape;
  }
  drawn = now;
}

/** A card as kept in `drawn`: with its two clocks, found once.
 * @param {number} id @param {string} key @param {HTMLElement} node */
function withClocks(id, key, node) {
  /** @param {string} side @returns {HTMLElement|null} */
  const clock = (side) => node.querySelector('[data-clock="' + id + side + '"]');
  return { key: key, node: node, clocks: { A: clock("A"), B: clock("B") } };
}

/** Table `id`'s clock `side` on its card, as last drawn (the frame loop's).
 * @param {number} id @param {string} side @returns {HTMLElement|null} */
export function cardClock(id, side) {
  const got = drawn.get(id);
  return got ? got.clocks[side] : null;
}

/** Whether a table's card is folded to one line: its match is over (or the
 * table closed), nothing about it needs the director (no alert), and it is
 * not the table open in the detail.  Clicking a folded card opens it (the
 * card unfolds while it is selected), so 25 finished tables at the end of an
 * evening sit below the running ones as 25 lines.
 * @param {Row} row @returns {boolean} */
export function folds(row) {
  const s = row.state;
  const over = (!!s && s.phase === "match_over") || (row.info && row.info.status === "closed");
  return over && app.selected !== row.info.id && alertsOf(row).length === 0;
}

/** A finished table's card, folded: its title, the winner and the score on one line.
 * @param {Row} row @returns {HTMLElement} */
function foldedCard(row) {
  const s = row.state, n = names(row), id = row.info.id;
  const won = s && s.winner ? t("card.winner", { name: n[s.winner] }) : t("alert.closed");
  return el("button", { type: "button", class: "card folded", id: "card-" + id, "data-table": id, "data-folded": "1",
    "aria-expanded": "false", title: t("card.unfold"), onclick: () => select(id) },
  [el("h3", {}, [el("span", { text: "▸ " + title(row) }),
    el("span", { text: won + (s ? " · " + s.score[0] + "–" + s.score[1] + " /" + s.length : "") })])]);
}

/** A table's card. @param {Row} row @param {Alert[]} alerts the table's (alertsOf) @returns {HTMLElement} */
function card(row, alerts) {
  if (folds(row)) return foldedCard(row);
  const s = row.state, n = names(row), id = row.info.id;
  const c = el("button", { type: "button", class: "card" + (app.selected === id ? " sel" : "") + (alerts.length ? " alerting" : ""),
    id: "card-" + id, "data-table": id, onclick: () => select(id) });
  c.append(el("h3", {}, [el("span", { text: title(row) }), el("span", { text: s ? s.score[0] + "–" + s.score[1] + " /" + s.length : "" })]));
  if (s) {
    const times = el("div", { class: "times" });
    for (const side of SIDES) {
      const run = s[side].running && s.phase === "playing";
      const low = isLow(row, s[side].reserve_ms);
      times.append(el("span", { class: run ? "run" : "", text: side }), el("span", { class: run ? "run" : "", text: n[side] }),
        el("span", { class: "t" + (run ? " run" : "") + (low ? " low" : ""), "data-clock": id + side, "data-low": low ? "1" : null,
          text: fmtClock(s[side].reserve_ms) }));
    }
    c.append(times);
    let meta = t("phase." + s.phase);
    if (s.stopped_reason && s.phase === "stopped") meta += " · " + t("reason." + s.stopped_reason);
    meta += " · " + t("bar.cube") + " " + s.cube.value + (s.cube.owner ? " " + s.cube.owner : "");
    if (s.game) meta += " · " + t("bar.game", { n: s.game });
    c.append(el("div", { class: "meta", text: meta }));
    // when the match is expected to end, and whether it holds the round up (forecast.js)
    const fc = s.phase !== "match_over" ? tableForecast(row.info.tournament_id || 0, id) : null;
    if (fc) c.append(el("div", { class: "meta", "data-forecast": fc.holding ? "holding" : "end",
      title: fc.title || null, text: fc.text }));
  }
  const badges = el("div", { class: "badges" });
  if (row.info.rules) badges.append(el("span", { class: "badge rules", "data-badge": "rules", title: (presets[row.info.rules] || {}).title || "", text: row.info.rules }));
  // a win by a provisional flag is no result yet (protocol: Provisional flags)
  if (s && s.phase === "match_over" && s.winner) badges.append(el("span", { class: "badge winner", "data-badge": "winner",
    "data-provisional": row.info.provisional ? "1" : null,
    text: t("card.winner", { name: n[s.winner] }) + (row.info.provisional ? " · " + t("alert.provisional") : "") }));
  if (s) for (const side of SIDES) {
    if (s.phase !== "match_over" && !s[side].expired && isLow(row, s[side].reserve_ms)) {
      badges.append(el("span", { class: "badge low", "data-badge": "low-" + side, text: t("card.low", { name: n[side] }) }));
    }
  }
  if (s && s.crawford) badges.append(el("span", { class: "badge crawford", text: t("bar.crawford") }));
  if (row.info.status === "closed") badges.append(el("span", { class: "badge", text: t("alert.closed") }));
  // the table's device: offline since when, and what a reconnect reconciled (protocol: Device time)
  const link = row.info.link;
  if (link && row.info.status !== "closed") {
    // who keeps the table's time, and its outage whatever other devices are
    // connected (protocol: The timekeeper is a claim)
    if (link.keeper_device && link.state !== "offline") {
      badges.append(el("span", { class: "badge keeper", "data-badge": "keeper", "data-keeper": "online",
        text: t("card.keeper_by", { name: link.keeper_name }) }));
    }
    if (link.state === "offline" && link.offline_since_ms != null) {
      const since = Math.max(0, Date.now() - link.offline_since_ms);
      badges.append(el("span", { class: "badge offline", "data-badge": "offline", "data-keeper": link.keeper_device ? "offline" : null,
        text: link.keeper_device ? t("card.keeper_offline", { name: link.keeper_name, t: fmtClock(since) })
          : t("card.offline", { t: fmtClock(since) }) }));
      // the clocks shown are the server's estimate while the keeper is away
      if (link.keeper_device) badges.append(el("span", { class: "badge estimate", "data-badge": "estimate", text: t("card.estimate") }));
    } else if (link.reconciled && (link.reconciled.applied || link.reconciled.refused)
               && Date.now() - link.reconciled.at_ms < 10 * 60000) {
      const r = link.reconciled;
      badges.append(el("span", { class: "badge reconciled", "data-badge": "reconciled",
        text: r.refused ? t("card.reconciled_refused", { n: r.applied, r: r.refused }) : t("card.reconciled", { n: r.applied }) }));
    }
    // a device asks for the time: the director may hand it over (protocol:
    // The time changes hands only with consent)
    for (const ask of link.asks || []) {
      badges.append(el("span", { class: "badge asks", "data-badge": "asks", "data-device": ask.device,
        text: t("card.asks", { name: ask.name }) }),
      el("button", { type: "button", class: "go", "data-act": "give-time", "data-device": ask.device,
        text: t("card.give"), onclick: (/** @type {Event} */ e) => {
          e.stopPropagation();
          giveTime(row.info.id, ask.device, ask.name);
        } }));
    }
    // presses of the former keeper made before a hand-over and not counted
    // (protocol: The timekeeper is a claim, the hand-over)
    const h = link.handover;
    if (h && h.refused > 0) {
      badges.append(el("span", { class: "badge handover", "data-badge": "handover",
        text: "⚠ " + t("card.handover_refused", { name: h.from_name, n: h.refused }) }));
    }
  }
  for (const a of alerts) badges.append(el("span", { class: "badge alert-b", "data-alert": a.kind, text: "⚠ " + (a.badge || t("alert." + a.kind)) }));
  c.append(badges);
  return c;
}

