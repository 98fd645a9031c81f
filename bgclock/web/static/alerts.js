/* bgclock dashboard: the order of the alerts and their words.
 *
 * Most urgent first: a flag or a dispute (a match waits for a ruling), then a
 * call for the director, a premature-action claim, a break running over, a
 * table recovered after a restart; within a rank the oldest first. */

/** Rank of each alert kind (lower: more urgent). */
export const URGENCY = { flag: 0, dispute: 0, dispute_expiry: 0, director: 1, premature: 2, break_over: 3, restart: 4 };

/**
 * @typedef {{kind: string, key: string, text: string, table: number, since: number}} Alert
 */

/**
 * Sort alerts by urgency, then by the time they appeared (oldest first), then by table.
 * @param {Alert[]} alerts @returns {Alert[]}
 */
export function sortAlerts(alerts) {
  const rank = (a) => (URGENCY[a.kind] === undefined ? 9 : URGENCY[a.kind]);
  return alerts.slice().sort((a, b) => rank(a) - rank(b) || a.since - b.since || a.table - b.table);
}
