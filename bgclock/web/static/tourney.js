/* bgclock dashboard: the tournament screen (issue 12).
 *
 * Players (register, CSV import, check-in, withdraw, late arrival), the
 * Main's settings, the draw (with the director's seed), rounds started at
 * tables, and every match's result (entered by hand, or from its clock) with
 * corrections.  Everything goes through /api/tournaments/{id}/... with the
 * director's key; the screen re-reads the tournament's state after each
 * action and every few seconds while it is open (a result from a clock comes
 * in by itself).  The screen is a section of director.html, opened by its
 * header's button. */
import { api, directorKey } from "./kit/api.js";
import { button, h } from "./kit/dom.js";
import { mountScreen, tournamentHead } from "./screen-kit.js";
import { i18n, refusalText } from "./tourney-strings.js";
import { timeOfDay } from "./kit/format.js";
import { clashSection, deskSections, matchButtons } from "./tourney-desk.js";
import { standingsSection } from "./tourney-standings.js";
import { flightSection } from "./tourney-flight.js";
import { registerPick } from "./register-pick.js";
import { openConfirm } from "./kit/confirm.js";

const I18N = i18n();
const t = I18N.t;
const REFRESH_MS = 3000;

/**
 * @typedef {{a: (string|null), b: (string|null), winner: (string|null)}} BracketMatch
 * @typedef {{size: number, rounds: BracketMatch[][], late_slots?: number[], late_open?: boolean,
 *   arrivals?: string[]}} Bracket
 * @typedef {{id: number, name: string, federation_id: (string|null), checked_in: boolean,
 *   withdrawn: boolean}} Player
 * @typedef {{event: string, round: number, match: number, table: number,
 *   table_id: (number|null), a: (string|null), b: (string|null), winner: (string|null),
 *   clock: string, result: (Object<string, any>|null)}} TableMatch
 * @typedef {{settings: {rounds: {length: number, rules: string, clock: string}[],
 *   late_slots: number, seed: number, seed_given?: boolean, last_chance?: boolean,
 *   seeds?: number[], groups?: number[][]}, players: Player[], drawn: boolean,
 *   main: (Bracket|null), consolation: (Bracket|null), last_chance?: (Bracket|null),
 *   matches: TableMatch[],
 *   room_url: string}} TourneyState
 */

const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {TourneyState|null} */ state: null,
  message: "",
  error: false,
  /** @type {number|null} */ timer: null,
  /** The tournament's log, oldest first (the history).
   * @type {{n: number, at_ms: number, source: string, action: Object<string, any>}[]} */
  history: [],
  /** The room's events when this one shares a room (GET .../flight).
   * @type {import("./flight-strings.js").Flight|null} */ flight: null,
  /** The actions on their way ("POST /draw"): a second click waits for the first.
   * @type {Set<string>} */ pending: new Set()
};

/** @returns {HTMLElement} */
function root() {
  return /** @type {HTMLElement} */ (document.getElementById("tourney"));
}

/** @returns {string} */
function base() {
  return "/api/tournaments/" + screen.tournament;
}

async function load() {
  if (screen.tournament == null) return;
  try {
    screen.state = await api("GET", base() + "/state");
    screen.history = (await api("GET", base() + "/actions")).actions;
    await loadFlight();
  } catch (e) {
    screen.message = String(/** @type {Error} */ (e).message);
    screen.error = true;
  }
  render();
}

/** The room's events, when this event shares a room. */
async function loadFlight() {
  const st = /** @type {any} */ (screen.state);
  screen.flight = st && st.flight ? (await api("GET", base() + "/flight")).flight : null;
}

/**
 * Run one action; show its outcome; read the state again.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string} [type]
 */
async function act(method, path, body, type) {
  const what = method + " " + path;
  if (screen.pending.has(what)) return;  // a double click: the action is on its way
  screen.pending.add(what);
  try {
    const out = await api(method, base() + path, body, type);
    if (out && out.state) screen.state = out.state;
    screen.message = out && out.waiting && out.waiting.length ? t("fl.waiting_n", { n: out.waiting.length }) : t("trn.done");
    screen.error = false;
    screen.history = (await api("GET", base() + "/actions")).actions;
    await loadFlight();
  } catch (e) {
    const err = /** @type {Error & {code?: string, params?: Object<string, (string|number)>}} */ (e);
    if (err.code === "clock_running" && body && typeof body === "object" && !body.stop_clock) {
      // the match's clock runs: ask again, then stop it and enter the result
      screen.message = refusalText(err);
      screen.error = true;
      const again = confirmed(t("cf.stop_clock", { table: String((err.params || {}).table) }), method, path,
        Object.assign({}, body, { stop_clock: true }));
      setTimeout(again, 0);  // once the first dialog has closed
    } else if (err.code && ALREADY.has(err.code)) {
      // the second answer to a repeated Draw or Start round: it was done once
      screen.message = t("trn.already_done");
      screen.error = false;
      await load();
    } else {
      screen.message = refusalText(err);
      screen.error = true;
    }
  } finally {
    screen.pending.delete(what);
  }
  render();
}

/** The refusals that answer an action already done (a repeated click). */
const ALREADY = new Set(["already_drawn", "round_not_ready"]);


/**
 * An action that changes the draw, a result or a player's status: the
 * director confirms it first, the dialog naming its effect (confirm.js).
 * @param {string} text
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @returns {function(): void}
 */
function confirmed(text, method, path, body) {
  return () => {
    // the opener: the button just clicked (the dialog keeps its Confirm away from it)
    openConfirm({ text: text, confirmLabel: t("act.confirm"), cancelLabel: t("act.cancel"),
      busyLabel: t("dir.sending"), opener: document.activeElement,
      onConfirm: () => act(method, path, body) });
  };
}

/**
 * @param {string} id
 * @returns {string}
 */
function value(id) {
  const node = /** @type {HTMLInputElement|HTMLTextAreaElement|null} */ (document.getElementById(id));
  return node ? node.value : "";
}

/** @returns {HTMLElement} */
function settingsForm() {
  const st = /** @type {TourneyState} */ (screen.state);
  const lines = st.settings.rounds.map((r) => [r.length, r.rules, r.clock].join(",")).join("\n");
  const form = h("div", { class: "form" },
    h("label", { for: "trn-rounds" }, t("trn.round_settings")),
    h("textarea", { id: "trn-rounds", rows: "3" }, lines),
    h("label", { for: "trn-late" }, t("trn.late_slots")),
    h("input", { id: "trn-late", type: "number", min: "0", max: "512", value: String(st.settings.late_slots) }),
    h("label", { for: "trn-seed" }, t("trn.seed")),
    h("input", { id: "trn-seed", type: "number", min: "0", placeholder: t("trn.seed_random"),
      value: st.settings.seed_given ? String(st.settings.seed) : "" }),
    h("label", { for: "trn-seeds" }, t("trn.seeds")),
    h("input", { id: "trn-seeds", type: "text", inputmode: "numeric",
      value: (st.settings.seeds || []).join(", ") }),
    h("label", { for: "trn-groups" }, t("trn.groups")),
    h("textarea", { id: "trn-groups", rows: "2" }, (st.settings.groups || []).map((g) => g.join(", ")).join("\n")),
    h("label", { for: "trn-last-chance" }, t("trn.last_chance")),
    h("input", /** @type {Object<string, string>} */ (Object.assign({ id: "trn-last-chance", type: "checkbox" },
      st.settings.last_chance ? { checked: "" } : {}))),
    h("span", {}),
    button(t("trn.save"), () => {
      const rounds = value("trn-rounds").split("\n").filter((x) => x.trim()).map((line) => {
        const [length, rules, clock] = line.split(",").map((x) => x.trim());
        return { length: Number(length), rules: rules, clock: clock || "required" };
      });
      const ids = (/** @type {string} */ line) => line.split(",").map((x) => x.trim()).filter((x) => x).map(Number);
      const groups = value("trn-groups").split("\n").map(ids).filter((g) => g.length);
      const box = /** @type {HTMLInputElement|null} */ (document.getElementById("trn-last-chance"));
      /** @type {Object<string, any>} */
      const body = { rounds: rounds, late_slots: Number(value("trn-late")),
        seeds: ids(value("trn-seeds")), groups: groups, last_chance: !!(box && box.checked) };
      if (value("trn-seed").trim() !== "") body.seed = Number(value("trn-seed"));  // else drawn at random
      act("POST", "/settings", body);
    }));
  if (st.drawn) form.querySelectorAll("input, textarea, button").forEach((n) => n.setAttribute("disabled", ""));
  return h("section", {}, h("h3", {}, t("trn.settings")), form);
}

/** @returns {HTMLElement} */
function playersSection() {
  const st = /** @type {TourneyState} */ (screen.state);
  const inDraw = new Set();
  if (st.main) {
    for (const m of st.main.rounds[0] || []) { if (m.a) inDraw.add(m.a); if (m.b) inDraw.add(m.b); }
  }
  const rows = st.players.map((p) => {
    const actions = h("td", {});
    if (!p.withdrawn) {
      if (!st.drawn) {
        actions.append(button(p.checked_in ? t("trn.check_out") : t("trn.check_in"),
          () => act("POST", "/players/" + p.id + "/check-in", { checked_in: !p.checked_in })));
      } else if (!inDraw.has(p.name) && st.main && st.main.late_open) {
        actions.append(button(t("trn.arrive"), () => act("POST", "/late/arrive", { player: p.id })));
      }
      actions.append(button(t("trn.withdraw"), confirmed(
        t(st.drawn ? "cf.withdraw_drawn" : "cf.withdraw", { name: p.name }), "POST", "/players/" + p.id + "/withdraw")));
    } else {
      actions.append(button(t("trn.reinstate"), confirmed(
        t("cf.reinstate", { name: p.name }), "POST", "/players/" + p.id + "/reinstate")));
    }
    const status = p.withdrawn ? t("trn.withdrawn") : (p.checked_in ? t("trn.checked_in") : "");
    return h("tr", {}, h("td", {}, String(p.id)), h("td", {}, p.name), h("td", {}, p.federation_id || ""),
      h("td", {}, status), actions);
  });
  const add = h("div", { class: "form" },
    h("label", { for: "trn-name" }, t("trn.name")), h("input", { id: "trn-name", maxlength: "100" }),
    h("label", { for: "trn-fed" }, t("trn.fed")), h("input", { id: "trn-fed", maxlength: "40" }),
    h("span", {}),
    button(t("trn.register"), () => {
      const fed = value("trn-fed").trim();
      act("POST", "/players", fed ? { name: value("trn-name"), federation_id: fed } : { name: value("trn-name") });
    }),
    h("label", { for: "trn-csv" }, t("trn.csv")), h("textarea", { id: "trn-csv", rows: "3" }),
    h("span", {}),
    button(t("trn.import"), () => act("POST", "/players.csv", value("trn-csv"), "text/csv")));
  return h("section", {}, h("h3", {}, t("trn.players") + " (" + st.players.length + ")"),
    h("table", { class: "trn-players" }, h("tbody", {}, ...rows)),
    registerPick(/** @type {number} */ (screen.tournament), act, render), add);
}

/** @returns {HTMLElement} */
function drawSection() {
  const st = /** @type {TourneyState} */ (screen.state);
  const out = h("section", {}, h("h3", {}, t("trn.rounds")));
  if (!st.drawn) {
    out.append(button(t("trn.draw"), () => {
      const typed = value("trn-seed").trim();
      const n = st.players.filter((p) => p.checked_in && !p.withdrawn).length;
      const text = t(typed === "" ? "cf.draw_random" : "cf.draw_seed", { n: n, seed: typed });
      // no seed typed: the server draws one
      confirmed(text, "POST", "/draw", typed === "" ? {} : { seed: Number(typed) })();
    }));
    return out;
  }
  out.append(h("p", {}, t("trn.drawn", { seed: st.settings.seed })));
  if (st.main && st.main.late_open) out.append(button(t("trn.close_late"), () => act("POST", "/late/close")));
  const label = (/** @type {string} */ event) => t("room." + event);
  const brackets = [["main", st.main], ["consolation", st.consolation], ["last_chance", st.last_chance || null]];
  for (const [event, bracket] of /** @type {[string, Bracket|null][]} */ (brackets)) {
    if (!bracket) continue;
    out.append(h("h4", {}, label(event)));
    bracket.rounds.forEach((matches, r) => {
      const ready = matches.some((m, i) => m.a && m.b && !m.winner
        && !st.matches.some((x) => x.event === event && x.round === r && x.match === i));
      const list = h("ol", { start: "1" });
      matches.forEach((m, i) => list.append(matchItem(event, r, i, m)));
      out.append(h("h5", {}, t("room.round", { n: r + 1 })));
      if (ready) {
        out.append(button(t("trn.start_round", { event: label(event), n: r + 1 }),
          () => act("POST", "/rounds", { event: event, round: r })));
      }
      out.append(list);
    });
  }
  return out;
}

/**
 * One match: its players, table, result and the director's buttons.
 * @param {string} event
 * @param {number} r
 * @param {number} i
 * @param {BracketMatch} m
 * @returns {HTMLElement}
 */
function matchItem(event, r, i, m) {
  const st = /** @type {TourneyState} */ (screen.state);
  const at = st.matches.find((x) => x.event === event && x.round === r && x.match === i);
  const lateOpen = (/** @type {number} */ pos) => event === "main" && r === 0 && !!st.main && !!st.main.late_open
    && (st.main.late_slots || []).includes(pos);
  const name = (/** @type {string|null} */ x, /** @type {number} */ pos) => x
    || (lateOpen(pos) ? t("st.late_slot") : r === 0 ? t("trn.bye") : t("trn.tbd"));
  const item = h("li", {}, name(m.a, 2 * i) + " – " + name(m.b, 2 * i + 1));
  if (at) item.append(" · " + t("trn.table", { n: at.table }) + " (" + t("trn.clock." + at.clock) + ")");
  const waits = /** @type {any} */ (st).waiting || [];
  if (!at && waits.some((/** @type {any} */ w) => w.event === event && w.round === r && w.match === i)) {
    item.append(" · " + t("fl.waits"));
  }
  if (m.winner) {
    const result = at && at.result;
    item.append(" · ★ " + m.winner + (result ? " (" + t("trn.source." + result.source) + (result.corrected ? ", " + t("trn.corrected") : "") + ")" : ""));
  }
  for (const b of matchButtons(/** @type {any} */ (st), event, r, i, m, act)) item.append(" ", b);
  if (m.a && m.b) {
    const pair = m.a + " – " + m.b;
    for (const who of [m.a, m.b]) {
      if (m.winner === who) continue;
      if (!m.winner) {
        item.append(" ", button(t("trn.enter", { name: who }), confirmed(
          t("cf.result", { name: who, match: pair }), "POST", "/results", { event: event, round: r, match: i, winner: who })));
      } else {
        // a correction names its winner (the button) and needs a reason
        item.append(" ", button(t("trn.correct", { name: who }), () => {
          const reason = value("trn-reason").trim();
          if (!reason) {
            screen.message = t("trn.reason_needed");
            screen.error = true;
            render();
            return;
          }
          confirmed(t("cf.correct", { name: who, was: String(m.winner), match: pair, reason: reason }),
            "POST", "/corrections", { event: event, round: r, match: i, winner: who, reason: reason })();
        }));
      }
    }
    const result = at && at.result;
    if (m.winner && (!result || result.source === "hand" || result.corrected)) {
      item.append(" ", button(t("trn.undo_result"), confirmed(
        t(result && result.corrected ? "cf.revert_correction" : "cf.revert", { name: m.winner, match: pair }),
        "POST", "/results/revert", { event: event, round: r, match: i })));
    }
  }
  return item;
}

/**
 * One logged action in words (the director's language).
 * @param {Object<string, any>} a
 * @returns {string}
 */
function describe(a) {
  const st = /** @type {TourneyState} */ (screen.state);
  const player = (/** @type {any} */ id) => {
    const p = st.players.find((x) => x.id === id);
    return p ? p.name : "#" + id;
  };
  /** @type {Object<string, (string|number)>} */
  const params = { name: a.player != null ? player(a.player) : (a.name || ""), winner: a.winner || "",
    seed: a.seed != null ? a.seed : "", n: a.round != null ? a.round + 1 : "", m: a.match != null ? a.match + 1 : "",
    event: t(a.event === "consolation" ? "room.consolation" : "room.main"), reason: a.reason || "" };
  const key = "hist." + a.do;
  const known = I18N.STRINGS[I18N.lang] && I18N.STRINGS[I18N.lang][key] !== undefined;
  return known ? t(key, params) : t("hist.other", { what: String(a.do) });
}

/**
 * The undo of a logged action, while it applies: [label, confirmation, path, body].
 * @param {Object<string, any>} a
 * @returns {[string, string, string, any]|null}
 */
function undoOf(a) {
  const st = /** @type {TourneyState} */ (screen.state);
  if (a.do === "withdraw") {
    const p = st.players.find((x) => x.id === a.player);
    if (!p || !p.withdrawn) return null;
    return [t("trn.reinstate"), t("cf.reinstate", { name: p.name }), "/players/" + p.id + "/reinstate", undefined];
  }
  if (a.do === "result" || a.do === "correct") {
    const event = a.event || "main";
    const bracket = event === "main" ? st.main : st.consolation;
    const m = bracket && bracket.rounds[a.round] && bracket.rounds[a.round][a.match];
    if (!m || m.winner !== a.winner) return null;
    const pair = m.a + " – " + m.b;
    return [t("trn.undo"), t(a.do === "correct" ? "cf.revert_correction" : "cf.revert", { name: String(m.winner), match: pair }),
      "/results/revert", { event: event, round: a.round, match: a.match }];
  }
  return null;
}

/** The tournament's action history, newest first: who, what, when; undo where it applies.
 * @returns {HTMLElement} */
function historySection() {
  const offered = new Set();  // one undo per match or player: its latest action's
  const rows = screen.history.slice(-40).reverse().map((x) => {
    const when = timeOfDay(x.at_ms, I18N.lang, true);
    const a = x.action;
    const what = a.do === "withdraw" || a.do === "reinstate" ? "p" + a.player
      : ["result", "correct", "revert"].includes(a.do) ? [a.event || "main", a.round, a.match].join(":") : null;
    const undo = what != null && !offered.has(what) ? undoOf(a) : null;
    if (what != null) offered.add(what);
    const cell = h("td", {});
    if (undo) cell.append(button(undo[0], confirmed(undo[1], "POST", undo[2], undo[3]), { "data-undo": String(x.n) }));
    return h("tr", { "data-n": String(x.n) }, h("td", {}, String(x.n)), h("td", {}, when),
      h("td", {}, t(x.source === "director" ? "hist.by_director" : "hist.by_table")),
      h("td", {}, describe(x.action)), cell);
  });
  return h("section", { id: "trn-history" }, h("h3", {}, t("hist.title")),
    h("table", { class: "trn-history" },
      h("thead", {}, h("tr", {}, ...["#", t("hist.when"), t("hist.who"), t("hist.what"), ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, ...rows)));
}

function render() {
  const node = root();
  if (!node || node.hidden) return;
  const head = tournamentHead(screen, { id: "trn-pick", title: t("trn.title"), label: t("trn.pick") }, load);
  const msg = h("p", { class: "msg" + (screen.error ? " err" : ""), role: "status" }, screen.message);
  node.replaceChildren(head, msg);
  if (screen.tournament == null) { node.append(h("p", {}, t("trn.none"))); return; }
  if (!screen.state) return;
  const room = h("p", {}, t("trn.room") + ": ", h("a", { href: screen.state.room_url, target: "_blank", rel: "noopener" }, screen.state.room_url));
  const reason = h("div", { class: "form" }, h("label", { for: "trn-reason" }, t("trn.reason")),
    h("input", { id: "trn-reason", maxlength: "200" }));
  const clashes = clashSection(/** @type {any} */ (screen.state), act);  // alerts first
  if (clashes) node.append(clashes);
  node.append(room, flightSection(/** @type {any} */ (screen.state), screen.flight, act, directorKey),
    settingsForm(), playersSection(), drawSection(), reason);
  if (screen.state.drawn) node.append(...deskSections(/** @type {any} */ (screen.state), act, directorKey));
  if (screen.state.drawn) node.append(standingsSection(/** @type {any} */ (screen.state), act, directorKey));
  node.append(historySection());
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-tourney", openText: () => t("trn.open"),
  refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

export { api, load, render, screen, toggle };
