// @ts-check
/* bgclock dashboard: when will the round end (issue 32 §8).  Each
 * tournament's forecast (GET /api/tournaments/{id}/forecast, worked out by
 * the server from the clocks: bgclock/tournament/forecast.py), read again
 * every `EVERY_MS` and whenever the dashboard asks; a line on each running
 * table's card ("expected end ~21:40", the table holding the round up
 * flagged) and one under the tournament's name for the round. */
import { api } from "../kit/api.js";
import { timeOfDay } from "../kit/format.js";
import { I18N, t } from "../kit/i18n.js";
import { app, ui } from "./state.js";

/** How often the forecasts are read again. */
export const EVERY_MS = 30000;

/**
 * @typedef {{event: string, round: number, match: number, table: number|null, table_id: number,
 *   end_ms?: number, bounded?: boolean}} ForecastMatch
 * @typedef {{end_ms: number|null, holding: ForecastMatch|null, matches: ForecastMatch[],
 *   unclocked: number, server_ms: number}} Forecast
 */

/** The forecasts by tournament id.  @type {Object<string, Forecast>} */
export const forecasts = {};

/** Read the forecast of every tournament with a table on the dashboard, then draw. */
export async function loadForecasts() {
  /** @type {Set<number>} */
  const tids = new Set();
  for (const id in app.tables) {
    const info = app.tables[id].info;
    if (info && info.tournament_id && info.status !== "closed") tids.add(info.tournament_id);
  }
  for (const tid of tids) {
    try {
      forecasts[tid] = /** @type {Forecast} */ (await api("GET", "/api/tournaments/" + tid + "/forecast"));
    } catch (e) {
      delete forecasts[tid];
    }
  }
  app.forecastsRead += 1;
  ui.render();
}

/** The line of clock table `id` of tournament `tid`, or null.
 * @param {number} tid @param {number} id
 * @returns {{text: string, holding: boolean, title: string}|null} */
export function tableForecast(tid, id) {
  const f = forecasts[tid];
  const m = f && f.matches.find((x) => x.table_id === id);
  if (!f || !m || m.end_ms == null) return null;
  const holding = !!f.holding && f.holding.table_id === id && f.matches.length > 1;
  return { text: t("fc.table", { t: timeOfDay(m.end_ms, I18N.lang) }) + (holding ? " · ⚑ " + t("fc.holding") : ""),
    holding: holding, title: m.bounded ? t("fc.bounded") : "" };
}

/** The round's line of tournament `tid`, or "".  @param {number} tid @returns {string} */
export function roundForecast(tid) {
  const f = forecasts[tid];
  if (!f || f.end_ms == null || !f.holding) return "";
  let text = t("fc.round", { t: timeOfDay(f.end_ms, I18N.lang), table: f.holding.table == null ? "–" : f.holding.table });
  if (f.unclocked) text += " · " + t("fc.unclocked", { n: f.unclocked });
  return text;
}
