// @ts-check
/* bgclock: the server's messages as the pages read them (docs/protocol.md).
 * Types only: this module exports nothing at run time. */

/** @typedef {"A"|"B"} Side */

/**
 * One side of a table's state on the wire.
 * @typedef {{reserve_ms: number, delay_ms: number, running: boolean,
 *   [field: string]: any}} WireSide
 */

/**
 * A table's state on the wire (protocol "state"): the match as the server
 * folded it at `at_ms` on the table's line.
 * @typedef {{phase: string, at_ms: number, A: WireSide, B: WireSide,
 *   expires_at_ms?: number|null, rules?: string, teams?: boolean, game: number,
 *   crawford?: boolean, cube_frozen?: boolean, cube: {value: number, owner: Side|null},
 *   double_offered_by?: Side|null, offer?: {side: Side, [field: string]: any}|null,
 *   on_turn?: Side|null, score: number[], length?: number, winner?: Side|null, stopped_reason?: string|null,
 *   [field: string]: any}} WireState
 */

/**
 * A table as GET /api/tables and the `state` message describe it.
 * @typedef {{id: number, clock?: {mode?: string, delay_ms?: number|null, [field: string]: any}|null,
 *   warn_s?: number[]|null, [field: string]: any}} TableInfo
 */

/**
 * The presets' time modes as the server injects them (#bg-presets).
 * @typedef {Object<string, {mode: string, delay_ms: number, team_delay_ms: number,
 *   [field: string]: any}>} Presets
 */

/** A message from the server (protocol v1): its type and its fields.
 * @typedef {{type: string, [field: string]: any}} Message */

export {};
