// @ts-check
/* bgclock dashboard, the tournament screen: the Main's settings and the players
 * (register, CSV import, pick from the register, check-in, withdraw, late
 * arrival). */
import { button, h, keepingFocus } from "../../kit/dom.js";
import { registerPick } from "../../register/view/pick.js";
import { act, confirmed, sayFlow } from "../actions.js";
import { screen, ui, value } from "../state.js";
import { flowI18n } from "../flow-strings.js";
import { i18n, refusalText } from "../strings.js";
import { jackpotBody, jackpotFields, reenterButton } from "./jackpot.js";
import { formatBody, formatFields } from "./weekly.js";

/**
 * @typedef {import("../state.js").TourneyState} TourneyState
 * @typedef {import("../state.js").Bracket} Bracket
 * @typedef {import("../state.js").BracketMatch} BracketMatch
 */

const I18N = i18n();
const t = I18N.t;
const FL = flowI18n();

/** @returns {HTMLElement} */
export function settingsForm() {
  const st = /** @type {TourneyState} */ (screen.state);
  const lines = st.settings.rounds.map((r) => [r.length, r.rules, r.clock].join(",")).join("\n");
  const form = h("div", { class: "form" },
    ...formatFields(st.settings),
    ...jackpotFields(st.settings),
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
    ...seedingButtons(st),
    h("label", { for: "trn-groups" }, t("trn.groups")),
    h("textarea", { id: "trn-groups", rows: "2" }, (st.settings.groups || []).map((g) => g.join(", ")).join("\n")),
    h("span", {}),
    button(FL.t("fl.groups_by_club"), () => act("POST", "/seeding", { clubs: true }, undefined,
      (out) => groupsText(out)), { id: "trn-groups-club" }),
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
        seeds: ids(value("trn-seeds")), groups: groups, last_chance: !!(box && box.checked),
        ...formatBody(), ...jackpotBody() };
      if (value("trn-seed").trim() !== "") body.seed = Number(value("trn-seed"));  // else drawn at random
      act("POST", "/settings", body);
    }));
  if (st.drawn) form.querySelectorAll("input, textarea, button").forEach((n) => n.setAttribute("disabled", ""));
  return h("section", {}, h("h3", {}, t("trn.settings")), form);
}

/**
 * Seeding by rating from the players' register (POST .../seeding): how many
 * seeds, and a button; the seeds field then shows the numbers it chose.
 * @param {TourneyState} st
 * @returns {HTMLElement[]}
 */
function seedingButtons(st) {
  const rated = st.players.filter((p) => p.checked_in && !p.withdrawn).length;
  const count = h("input", { id: "trn-seed-count", type: "number", min: "0", max: "512",
    value: String(Math.min(rated, (st.settings.seeds || []).length || Math.min(8, rated >> 1))) });
  return [h("label", { for: "trn-seed-count" }, FL.t("fl.seeds_count")),
    count, h("span", {}),
    button(FL.t("fl.seeds_by_rating"), () => {
      const n = Number(value("trn-seed-count"));
      if (!Number.isInteger(n) || n < 0) { sayFlow(FL.t("fl.seeds_count_bad"), true); return; }
      act("POST", "/seeding", { seeds: n }, undefined, (out) => seedsText(out, n));
    }, { id: "trn-seeds-rating" })];
}

/**
 * What seeding by rating did: the seeds in order, or that nobody has a rating.
 * @param {any} out the answer @param {number} asked
 * @returns {string}
 */
function seedsText(out, asked) {
  const st = out && out.state;
  if (!st) return t("trn.done");
  const names = (st.settings.seeds || []).map((/** @type {number} */ id, /** @type {number} */ k) =>
    "[" + (k + 1) + "] " + playerName(st, id));
  if (!names.length) return FL.t("fl.seeds_none");
  return FL.t(names.length < asked ? "fl.seeds_fewer" : "fl.seeds_done",
    { list: names.join(", "), n: names.length, asked: asked });
}

/**
 * What separation by club did: the groups, named by their players.
 * @param {any} out the answer
 * @returns {string}
 */
function groupsText(out) {
  const st = out && out.state;
  if (!st) return t("trn.done");
  const groups = (st.settings.groups || []).map((/** @type {number[]} */ g) =>
    g.map((id) => playerName(st, id)).join(", "));
  return groups.length ? FL.t("fl.groups_done", { n: groups.length, list: groups.join("; ") })
    : FL.t("fl.groups_none");
}

/**
 * @param {TourneyState} st @param {number} id
 * @returns {string}
 */
function playerName(st, id) {
  const p = st.players.find((x) => x.id === id);
  return p ? p.name : "#" + id;
}

/** @returns {HTMLElement} */
export function playersSection() {
  const st = /** @type {TourneyState} */ (screen.state);
  const inDraw = new Set();
  if (st.main) {
    for (const m of st.main.rounds[0] || []) { if (m.a) inDraw.add(m.a); if (m.b) inDraw.add(m.b); }
  }
  const q = fold(playerQuery.text);
  const shown = st.players.filter((p) => !q || fold(p.name).includes(q) || fold(p.federation_id || "").includes(q));
  const rows = shown.map((p) => {
    const actions = h("td", {});
    if (!p.withdrawn) {
      if (!st.drawn) {
        actions.append(button(p.checked_in ? t("trn.check_out") : t("trn.check_in"),
          () => act("POST", "/players/" + p.id + "/check-in", { checked_in: !p.checked_in })));
      } else if (!inDraw.has(p.name) && st.main && st.main.late_open) {
        actions.append(button(t("trn.arrive"), () => act("POST", "/late/arrive", { player: p.id }, undefined,
          (out) => arrivalText(p.name, out))));
      }
      const again = reenterButton(st, p);  // a player knocked out enters again
      if (again) actions.append(again);
      actions.append(button(t("trn.withdraw"), confirmed(
        t(st.drawn ? "cf.withdraw_drawn" : "cf.withdraw", { name: p.name }), "POST", "/players/" + p.id + "/withdraw")));
      // an entry made by mistake leaves the event, while it is not drawn
      if (!st.drawn) actions.append(button(t("trn.delete_entry"), confirmed(
        t("cf.delete_entry", { name: p.name }), "DELETE", "/players/" + p.id), { "data-act": "delete-entry" }));
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
    st.drawn ? null : checkInBar(st, shown),
    h("div", { class: "scroll-x" }, h("table", { class: "trn-players", id: "trn-players" }, h("tbody", {}, ...rows))),
    // the tournament's register (a club's own for a club's event: docs/hosting.md)
    registerPick(/** @type {number} */ (screen.tournament), act, ui.render), add);
}


/**
 * What a late arrival's answer did with the match it completed: seated at
 * a table, waiting for the room's next free table, not seated (the
 * server's words), or the slot taken before the first round starts.
 * @param {string} name
 * @param {any} out the server's answer
 * @returns {string}
 */
export function arrivalText(name, out) {
  const fl = flowI18n().t;
  if (out && out.not_seated) {
    const err = /** @type {Error & {code?: string}} */ (new Error(out.not_seated.message));
    err.code = out.not_seated.error;
    return fl("fl.arrived_not_seated", { name: name, why: refusalText(err) });
  }
  const a = out && out.arrival;
  if (!a) return fl("fl.arrived_slot", { name: name });
  if (a.table != null) return fl("fl.arrived_seated", { name: name, table: a.table });
  return fl("fl.arrived_waiting", { name: name });
}

/** The check-in search typed so far (kept across the screen's re-renders). */
const playerQuery = { text: "" };

/**
 * A name as searched: lower case, without accents ("Nicolò" is found by "nicolo").
 * @param {string} text
 * @returns {string}
 */
function fold(text) {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
}

/**
 * Check-in at the desk: a search over the players (name or federation id)
 * and "all present" for the players listed who are not checked in yet
 * (one action, confirmed naming how many).
 * @param {TourneyState} st
 * @param {import("../state.js").Player[]} shown the players the search lists
 * @returns {HTMLElement}
 */
function checkInBar(st, shown) {
  const fl = flowI18n().t;
  const box = /** @type {HTMLInputElement} */ (h("input", { id: "trn-players-q", type: "search", maxlength: "100",
    autocomplete: "off", placeholder: fl("fl.checkin_search_help") }));
  box.value = playerQuery.text;
  box.addEventListener("input", () => {
    playerQuery.text = box.value;
    keepingFocus(ui.render);
  });
  const absent = shown.filter((p) => !p.withdrawn && !p.checked_in);
  const all = absent.length ? button(fl("fl.all_present", { n: absent.length }), confirmed(
    fl("fl.cf_all_present", { n: absent.length, names: absent.slice(0, 5).map((p) => p.name).join(", ")
      + (absent.length > 5 ? ", …" : "") }),
    "POST", "/players/check-in", { players: absent.map((p) => p.id) }), { id: "trn-all-present" }) : null;
  const present = st.players.filter((p) => p.checked_in && !p.withdrawn).length;
  return h("div", { class: "form", role: "search" },
    h("label", { for: "trn-players-q" }, fl("fl.checkin_search")), box,
    h("span", { id: "trn-present" }, fl("fl.present_of", { n: present, of: st.players.filter((p) => !p.withdrawn).length })),
    all);
}
