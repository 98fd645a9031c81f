// @ts-check
/* bgclock dashboard, the players' register: its sections (the search with
 * its pages, a player's history, the entry form, the files: CSV import and
 * export, the rating list; closing the tournament, confirmed). */
import { api } from "../../kit/api.js";
import { openConfirm } from "../../kit/confirm.js";
import { button, h } from "../../kit/dom.js";
import { onceAttrs } from "../../kit/once.js";
import { act, load, showHistory } from "../actions.js";
import { PAGE, screen, ui, value } from "../state.js";
import { flowI18n } from "../../tourney/flow-strings.js";
import { i18n, parseRating } from "../strings.js";

const I18N = i18n();
const t = I18N.t;
const it = flowI18n().t;

/**
 * @typedef {import("../state.js").Entry} Entry
 * @typedef {import("../state.js").Line} Line
 */

/** @returns {HTMLElement} */
export function searchSection() {
  const order = h("select", { id: "reg-order", "aria-label": t("reg.order") },
    h("option", { value: "name" }, t("reg.order.name")),
    h("option", { value: "rating" }, t("reg.order.rating")));
  /** @type {HTMLSelectElement} */ (order).value = screen.order;
  const go = () => {
    screen.q = value("reg-q"); screen.order = value("reg-order"); screen.offset = 0;
    load();
  };
  const input = h("input", { id: "reg-q", maxlength: "100", value: screen.q, "aria-label": t("reg.search"),
    placeholder: t("reg.search") });
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
  const rows = screen.entries.map((e) => {
    const actions = h("td", {}, button(t("reg.history"), () => showHistory(e)),
      button(t("reg.edit"), () => { screen.editing = e; ui.render(); }));
    if (screen.tournament != null) {
      const players = "/api/tournaments/" + screen.tournament + "/players";
      if (e.player != null) {
        const pid = e.player;
        actions.append(" " + t("reg.entered", { n: pid }) + " ",
          // an entry made by mistake: deleted while the event is not drawn
          button(t("reg.delete_entry"), () => act("reg-delete-" + e.id, async () => {
            await api("DELETE", players + "/" + pid);
            return t("reg.deleted", { name: e.name });
          }), Object.assign({ "data-delete": String(e.id) }, onceAttrs("reg-delete-" + e.id))));
      } else {
        const enter = button(t("reg.enter"), () => act("reg-enter-" + e.id, async () => {
          /** @type {Object<string, any>} */
          const body = { name: e.name, register_id: e.id };
          if (e.federation_id) body.federation_id = e.federation_id;
          try {
            await api("POST", players, body);
          } catch (err) {
            const refused = /** @type {import("../../kit/api.js").ApiError} */ (err);
            if (refused.code !== "already_entered") throw err;
            // a person is one entry among a room's events, unless the director says so
            openConfirm({ text: t("reg.entered_elsewhere", { name: e.name, event: String((refused.params || {}).event || "") }),
              confirmLabel: t("reg.enter_both"), cancelLabel: t("reg.cancel"), busyLabel: t("reg.entering"), opener: enter,
              onConfirm: () => act("reg-enter-both-" + e.id, async () => {
                await api("POST", players, Object.assign({ confirm: true }, body));
                return t("reg.done");
              }) });
            return t("reg.asked");
          }
          return t("reg.done");
        }), Object.assign({ "data-entry": String(e.id) }, onceAttrs("reg-enter-" + e.id)));
        actions.append(enter);
      }
    }
    // each cell says what it is (data-label) where a phone draws the row in lines (style.css)
    return h("tr", {}, h("td", {}, e.name), h("td", { "data-label": t("reg.fed") }, e.federation_id || ""),
      h("td", { "data-label": t("reg.club") }, e.club || ""),
      h("td", { class: "num", "data-label": t("reg.rating") }, e.rating_points),
      h("td", { class: "num", "data-label": t("reg.experience") }, String(e.experience)), actions);
  });
  const head = h("tr", {}, ...["reg.name", "reg.fed", "reg.club", "reg.rating", "reg.experience", ""]
    .map((k) => h("th", {}, k ? t(k) : "")));
  const pager = h("div", { class: "row" }, t("reg.found", { n: screen.total }));
  if (screen.offset > 0) pager.append(button(t("reg.prev"), () => { screen.offset = Math.max(0, screen.offset - PAGE); load(); }));
  if (screen.offset + PAGE < screen.total) pager.append(button(t("reg.next"), () => { screen.offset += PAGE; load(); }));
  return h("section", {}, h("div", { class: "row" }, input, order, button(t("reg.find"), go, { id: "reg-find" })),
    // on a phone each row is drawn in lines (style.css); the list scrolls in
    // its own box if it is still wider than the screen
    h("div", { class: "scroll-x" }, h("table", { class: "reg-list reg-found" }, h("thead", {}, head), h("tbody", {}, ...rows))), pager);
}

/** @returns {HTMLElement} */
export function editSection() {
  const e = screen.editing;
  const form = h("div", { class: "form" },
    h("label", { for: "reg-name" }, t("reg.name")), h("input", { id: "reg-name", maxlength: "100", value: e ? e.name : "" }),
    h("label", { for: "reg-fed" }, t("reg.fed")), h("input", { id: "reg-fed", maxlength: "40", value: e && e.federation_id || "" }),
    h("label", { for: "reg-club" }, t("reg.club")), h("input", { id: "reg-club", maxlength: "100", value: e && e.club || "" }),
    h("label", { for: "reg-rating" }, t("reg.rating_hint")),
    h("input", { id: "reg-rating", inputmode: "decimal", value: e ? e.rating_points : "" }),
    h("span", {}),
    h("div", { class: "row" }, button(t("reg.save"), () => act("reg-save", async () => {
      const fed = value("reg-fed").trim(), club = value("reg-club").trim(), rating = value("reg-rating").trim();
      /** @type {Object<string, any>} */
      const body = { name: value("reg-name"), federation_id: fed || null, club: club || null };
      if (rating && (!e || rating !== e.rating_points)) {
        // a rating the server could not read is said here, in the page's language, and not sent
        const hundredths = parseRating(rating);
        if (hundredths == null) throw new Error(t("reg.bad_rating"));
        body.rating = hundredths;
      }
      if (e) await api("PATCH", "/api/register/" + e.id, body);
      else await api("POST", "/api/register", body);
      screen.editing = null;
      return t("reg.done");
    }), Object.assign({ id: "reg-save" }, onceAttrs("reg-save"))), e ? button(t("reg.cancel"), () => { screen.editing = null; ui.render(); }) : null));
  return h("section", {}, h("h3", {}, e ? t("reg.edit_title", { name: e.name }) : t("reg.add_title")), form);
}

/** @returns {HTMLElement} */
export function filesSection() {
  // no key in these addresses: the director's session cookie opens them
  const lang = I18N.lang === "it" ? "it" : "en";
  const file = /** @type {HTMLInputElement} */ (h("input", { id: "reg-file", type: "file", accept: ".csv,text/csv,text/plain" }));
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const area = /** @type {HTMLTextAreaElement} */ (document.getElementById("reg-csv"));
    area.value = sheetText(await f.arrayBuffer());
    importPreview.shown = null;
    area.dispatchEvent(new Event("input"));
  });
  // what the director typed or opened is the screen's, not the field's: a
  // render (the screen's first read answering, a refresh) draws it again
  const area = /** @type {HTMLTextAreaElement} */ (h("textarea", { id: "reg-csv", rows: "3" }, importPreview.text));
  area.addEventListener("input", () => { importPreview.text = area.value; });
  return h("section", {}, h("h3", {}, t("reg.import_title")),
    h("div", { class: "form" }, h("label", { for: "reg-file" }, it("fl.reg_file")), file,
      h("label", { for: "reg-csv" }, t("reg.csv")), area,
      h("span", {}), h("div", { class: "row" }, button(it("fl.reg_preview"), () => act("reg-preview", async () => {
        importPreview.text = value("reg-csv");
        importPreview.shown = await api("POST", "/api/register.csv?preview=true", importPreview.text, "text/csv");
        return it("fl.reg_previewed", { a: importPreview.shown.added, u: importPreview.shown.updated });
      }), Object.assign({ id: "reg-preview" }, onceAttrs("reg-preview"))),
      button(t("reg.import"), () => act("reg-import", async () => {
        const done = await api("POST", "/api/register.csv", value("reg-csv"), "text/csv");
        importPreview.shown = null; importPreview.text = "";
        return t("reg.imported", { a: done.added, u: done.updated });
      }), Object.assign({ id: "reg-import" }, onceAttrs("reg-import"))))),
    previewList(),
    h("p", { class: "row" }, h("a", { href: "/api/register.csv", download: "register.csv" }, t("reg.export"))),
    h("h3", {}, t("reg.list_title")),
    h("p", { class: "row" },
      h("a", { id: "reg-print", href: "/api/register/ratings.html?lang=" + lang, target: "_blank", rel: "noopener" }, t("reg.print")),
      h("a", { href: "/api/register/ratings.csv", download: "ratings.csv" }, t("reg.list_csv"))));
}

/** @returns {HTMLElement|null} */
export function historySection() {
  const e = screen.history;
  if (!e) return null;
  const head = h("tr", {}, ...["reg.h.tournament", "reg.h.opponent", "reg.h.length", "reg.h.result", "reg.h.before", "reg.h.after"]
    .map((k) => h("th", {}, t(k))));
  const rows = e.history.map((x) => h("tr", {}, h("td", {}, x.tournament_name), h("td", {}, x.opponent_name),
    h("td", { class: "num" }, String(x.length)), h("td", {}, t(x.won ? "reg.won" : "reg.lost")),
    h("td", { class: "num" }, x.before_points), h("td", { class: "num" }, x.after_points)));
  return h("section", { id: "reg-history" }, h("h3", {}, t("reg.history_of", { name: e.name }) + " · " + e.rating_points),
    rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "reg-list" }, h("thead", {}, head), h("tbody", {}, ...rows)))
      : h("p", {}, t("reg.no_history")),
    button(t("reg.cancel"), () => { screen.history = null; ui.render(); }));
}

/** @returns {HTMLElement|null} */
export function closeSection() {
  if (screen.tournament == null) return null;
  const pick = /** @type {HTMLSelectElement|null} */ (document.getElementById("reg-pick"));
  const b = button(t("reg.close"), () => {
    const name = pick && pick.selectedOptions[0] ? pick.selectedOptions[0].textContent || "" : String(screen.tournament);
    openConfirm({ text: t("reg.close_confirm", { name: name }), confirmLabel: t("reg.confirm"),
      cancelLabel: t("reg.cancel"), busyLabel: t("reg.closing"), opener: b,
      onConfirm: () => act("reg-close", async () => {
        const out = await api("POST", "/api/tournaments/" + screen.tournament + "/close");
        // closed, but the store refused to rate it (out.rated.error, the server's words)
        if (out.rated.error) throw new Error(t("reg.err.not_rated"));
        return t(out.rated.now ? "reg.closed" : "reg.closed_before", { n: out.rated.matches });
      }) });
  }, { id: "reg-close" });
  return h("p", { class: "row" }, b);
}


/** The import's preview (what it will do), kept across re-renders with the
 * text it was made from. @type {{text: string, shown: any}} */
const importPreview = { text: "", shown: null };

/**
 * A spreadsheet export's text: UTF-8, else Windows-1252 (Excel's "CSV" on
 * an Italian PC); the server reads either too.
 * @param {ArrayBuffer} raw
 * @returns {string}
 */
export function sheetText(raw) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch (e) {
    return new TextDecoder("windows-1252").decode(raw);
  }
}

/** @returns {HTMLElement|null} the preview: counts, then the first rows as they will be saved */
function previewList() {
  const p = importPreview.shown;
  if (!p) return null;
  return h("div", { id: "reg-preview-list" },
    h("p", {}, it("fl.reg_previewed", { a: p.added, u: p.updated })),
    h("ul", {}, ...p.rows.map((/** @type {any} */ r) => h("li", {}, it(r.entry ? "fl.reg_row_update" : "fl.reg_row_add",
      { row: r.row, name: r.name, club: r.club || "–", rating: r.rating, entry: r.entry || "" })))));
}
