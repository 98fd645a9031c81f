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
import { api, button, directorKey, h, mountScreen, tournamentHead } from "./screen-kit.js";
import { i18n } from "./tourney-strings.js";
import { clashSection, deskSections, matchButtons } from "./tourney-desk.js";
import { standingsSection } from "./tourney-standings.js";
import { registerPick } from "./register-pick.js";

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
 *   late_slots: number, seed: number, last_chance?: boolean, seeds?: number[],
 *   groups?: number[][]}, players: Player[], drawn: boolean,
 *   main: (Bracket|null), consolation: (Bracket|null), last_chance?: (Bracket|null),
 *   matches: TableMatch[],
 *   room_url: string}} TourneyState
 */

const screen = {
  /** @type {number|null} */ tournament: null,
  /** @type {TourneyState|null} */ state: null,
  message: "",
  error: false,
  /** @type {number|null} */ timer: null
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
  } catch (e) {
    screen.message = String(/** @type {Error} */ (e).message);
    screen.error = true;
  }
  render();
}

/**
 * Run one action; show its outcome; read the state again.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string} [type]
 */
async function act(method, path, body, type) {
  try {
    const out = await api(method, base() + path, body, type);
    if (out && out.state) screen.state = out.state;
    screen.message = t("trn.done");
    screen.error = false;
  } catch (e) {
    screen.message = String(/** @type {Error} */ (e).message);
    screen.error = true;
  }
  render();
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
    h("input", { id: "trn-seed", type: "number", min: "0", value: String(st.settings.seed) }),
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
      act("POST", "/settings", { rounds: rounds, late_slots: Number(value("trn-late")), seed: Number(value("trn-seed")),
        seeds: ids(value("trn-seeds")), groups: groups, last_chance: !!(box && box.checked) });
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
      actions.append(button(t("trn.withdraw"), () => act("POST", "/players/" + p.id + "/withdraw")));
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
    out.append(button(t("trn.draw"), () => act("POST", "/draw", { seed: Number(value("trn-seed")) })));
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
  if (m.winner) {
    const result = at && at.result;
    item.append(" · ★ " + m.winner + (result ? " (" + t("trn.source." + result.source) + (result.corrected ? ", " + t("trn.corrected") : "") + ")" : ""));
  }
  for (const b of matchButtons(/** @type {any} */ (st), event, r, i, m, act)) item.append(" ", b);
  if (m.a && m.b) {
    for (const who of [m.a, m.b]) {
      if (m.winner === who) continue;
      if (!m.winner) {
        item.append(" ", button(t("trn.enter", { name: who }),
          () => act("POST", "/results", { event: event, round: r, match: i, winner: who })));
      } else {
        item.append(" ", button(t("trn.correct", { name: who }), () => {
          const reason = value("trn-reason").trim();
          act("POST", "/corrections", Object.assign({ event: event, round: r, match: i, winner: who },
            reason ? { reason: reason } : {}));
        }));
      }
    }
  }
  return item;
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
  node.append(room, settingsForm(), playersSection(), drawSection(), reason);
  if (screen.state.drawn) node.append(...deskSections(/** @type {any} */ (screen.state), act, directorKey));
  if (screen.state.drawn) node.append(standingsSection(/** @type {any} */ (screen.state), act, directorKey));
}

/** Open or close the screen (the header's button). */
const toggle = mountScreen({ root: root, opener: "btn-tourney", openText: () => t("trn.open"),
  refreshMs: REFRESH_MS, load: load, render: render, screen: screen });

export { api, load, render, screen, toggle };
