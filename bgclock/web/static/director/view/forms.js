// @ts-check
/* bgclock dashboard: the forms that create a tournament and a table (or
 * edit a table before play), and the sheet of QR codes to print. */
import { api } from "../../kit/api.js";
import { el } from "../../kit/dom.js";
import { fmtClock, parseClock } from "../../kit/format.js";
import { t } from "../../kit/i18n.js";
import { submitOnce } from "../../kit/once.js";
import { $, app, dialog, errText, input, presets, title, ui } from "../state.js";
import { conn, mergeInfo } from "../link.js";
import { select } from "../actions.js";

/** @typedef {import("../../kit/types.js").TableInfo} TableInfo */

/* ------------------------------------------------------------ forms */
export function openTournamentForm() { tableNext = false; $("tn-msg").textContent = ""; dialog("dlg-tournament").showModal(); }
/** "+ Table" asked before any tournament: its form follows the tournament's. */
let tableNext = false;
/* The table form: a new table, or (info given) the table before play. */
/** @param {TableInfo|null} info */
export function openTableForm(info) {
  if (!info && !Object.values(app.tournaments).some((x) => !x.closed_ms)) {
    // a table belongs to a tournament: say so, and offer to create one (the
    // table's form opens once it is created)
    openTournamentForm();
    $("tn-msg").textContent = t("dir.table_needs_tournament");
    $("tn-msg").className = "msg";
    tableNext = true;
    return;
  }
  const sel = /** @type {HTMLSelectElement} */ ($("tb-tournament"));
  sel.replaceChildren(...Object.values(app.tournaments).filter((x) => !x.closed_ms || (info && x.id === info.tournament_id))
    .map((x) => el("option", { value: x.id, text: x.name })));
  const rules = /** @type {HTMLSelectElement} */ ($("tb-rules"));
  if (!rules.options.length) for (const id in presets) rules.append(el("option", { value: id, title: presets[id].title, text: id + " (" + presets[id].mode + ")" }));
  app.editing = info ? info.id : null;
  const f = /** @type {HTMLFormElement} */ ($("form-table"));
  const wasEdit = f.dataset.mode === "edit";
  f.dataset.mode = info ? "edit" : "create";
  $("tb-title").textContent = t(info ? "form.edit_table" : "form.table");
  $("tb-submit").textContent = t(info ? "form.save" : "form.create");
  sel.disabled = !!info;
  if (info) {
    const c = info.clock || {};
    /** @param {number|null|undefined} ms */
    const clockText = (ms) => (ms == null ? "" : fmtClock(ms));
    sel.value = String(info.tournament_id);
    input("tb-name").value = info.name || "";
    input("tb-a").value = info.players[0]; input("tb-b").value = info.players[1];
    rules.value = info.rules;
    input("tb-length").value = String(info.length);
    input("tb-sa").value = String(info.score[0]); input("tb-sb").value = String(info.score[1]);
    input("tb-teams").checked = !!info.teams; input("tb-crawford").checked = !!info.crawford;
    input("tb-mode").value = c.mode || "";
    input("tb-pp").value = clockText(c.per_point_ms); input("tb-lpp").value = clockText(c.less_per_point_ms);
    input("tb-delay").value = c.delay_ms == null ? "" : String(c.delay_ms / 1000);
    input("tb-reserve").value = clockText(c.reserve_ms);
    input("tb-overtime").value = clockText(c.overtime_ms);
    input("tb-warn").value = (info.warn_s || [60, 20, 10]).join(", ");
  } else if (wasEdit) {
    f.reset();  // a new table starts from the defaults, not from the table just edited
  }
  $("tb-msg").textContent = "";
  dialog("dlg-table").showModal();
}
/* "90, 30, 10" -> [90, 30, 10] (whole seconds; the server checks them). */
/** @param {string} text @returns {number[]} */
function warnSeconds(text) {
  return String(text || "").split(/[ ,;]+/).filter(Boolean).map(Number);
}
/* Each form sends once while its request is on its way (kit/once.js): a
 * double click on Create, or Enter pressed again, made a second tournament or
 * table; its button is enabled again once the answer, or the failure, has come. */
submitOnce($("form-tournament"), "form-tournament", async () => {
  try {
    const tn = await api("POST", "/api/tournaments", { name: input("tn-name").value });
    app.tournaments[tn.id] = Object.assign({ tables: [] }, tn);
    dialog("dlg-tournament").close();
    ui.render();
    if (tableNext) { tableNext = false; openTableForm(null); }
  } catch (err) { $("tn-msg").textContent = errText(err); $("tn-msg").className = "msg err"; }
});
submitOnce($("form-table"), "form-table", async () => {
  /** @type {Object<string, any>} */
  const clock = {};
  if (input("tb-mode").value) clock.mode = input("tb-mode").value;
  /** @param {string} idn */
  const ms = (idn) => { const v = input(idn).value.trim(); return v ? parseClock(v) : null; };
  if (ms("tb-pp") != null) clock.per_point_ms = ms("tb-pp");
  if (ms("tb-lpp") != null) clock.less_per_point_ms = ms("tb-lpp");
  if (input("tb-delay").value.trim()) clock.delay_ms = Math.round(parseFloat(input("tb-delay").value) * 1000);
  if (ms("tb-reserve") != null) clock.reserve_ms = ms("tb-reserve");
  if (ms("tb-overtime") != null) clock.overtime_ms = ms("tb-overtime");
  /** @type {Object<string, any>} */
  const spec = {
    name: input("tb-name").value, players: [input("tb-a").value || "A", input("tb-b").value || "B"], rules: input("tb-rules").value,
    length: parseInt(input("tb-length").value, 10), score: [parseInt(input("tb-sa").value, 10) || 0, parseInt(input("tb-sb").value, 10) || 0],
    teams: input("tb-teams").checked, crawford: input("tb-crawford").checked, clock: clock
  };
  const warn = warnSeconds(input("tb-warn").value);
  if (warn.length) spec.warn_s = warn;
  try {
    const info = app.editing != null
      ? await api("PATCH", "/api/tables/" + app.editing, spec)
      : await api("POST", "/api/tournaments/" + input("tb-tournament").value + "/tables", spec);
    mergeInfo(info);
    dialog("dlg-table").close();
    conn.sendRaw({ type: "sync", v: 1, table: info.id });
    select(info.id);
  } catch (err) { $("tb-msg").textContent = errText(err); $("tb-msg").className = "msg err"; }
});
document.querySelectorAll("dialog [data-close]").forEach((b) => b.addEventListener("click", () => { const dlg = b.closest("dialog"); if (dlg) dlg.close(); }));

export function printSheet() {
  const sheet = $("print-sheet");
  sheet.replaceChildren();
  for (const id of Object.keys(app.tables).sort((a, b) => Number(a) - Number(b))) {
    const row = app.tables[id];
    if (row.info.status === "closed") continue;
    // the card names the event the table belongs to (a room's tables serve several)
    // (a room's table's title names the event seated already: once is enough)
    const tn = app.tournaments[String(row.info.tournament_id || "")];
    const head = title(row);
    const named = tn && head.indexOf(tn.name) < 0 ? tn.name + " · " + head : head;
    sheet.append(el("div", { class: "print-card" }, [el("h2", { text: named }),
      el("img", { src: "/api/tables/" + id + "/qr.svg", alt: "QR" }),
      el("p", { class: "linkbox", text: row.url || "" })]));
  }
  setTimeout(() => window.print(), 300);
}
