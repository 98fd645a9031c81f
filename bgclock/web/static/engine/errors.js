// @ts-check
/* bgclock engine: errors and the catalogue of refusals (a port of
 * bgclock/core/_errors.py).  Every refusal carries the same stable `code` as
 * the Python core's; `params` fill its English template. */

/** code -> English template; `{name}` fields come from the error's params.
 * @type {Readonly<Record<string, string>>} */
export const REFUSALS = Object.freeze({
  not_in_phase: "{event} is not allowed {when}",
  match_over: "{event} is not allowed: the match is over",
  no_game: "{event} is not allowed: no game is in progress",
  opening_roll_in_game: "opening roll is not allowed during a game",
  opening_dice_equal: "the opening dice are equal ({a}-{b}): roll again",
  start_at_game_start: "{rules}: clocks are introduced only at the start of a game (1.1)",
  clock_in_use: "{event} is not allowed: the clock is already in use",
  start_cube_centered:
    "the clock cannot start with a centered cube at {value}: a doubled cube has an owner",
  start_cube_owned_at_one:
    "the clock cannot start with {side} owning the cube at 1: a cube nobody doubled is" +
    " centered",
  start_cube_crawford:
    "the clock cannot start with the cube at {value}: this is the Crawford game, the cube" +
    " stays centered at 1",
  doubled_must_answer: "{side} has been doubled: {side} must take or pass",
  double_pending: "{side} cannot double: a double is waiting for an answer",
  double_not_turn: "{side} cannot double: it is not {side}'s turn",
  crawford_no_double: "{side} cannot double: this is the Crawford game",
  cube_frozen: "{side} cannot double: the cube is frozen (aba-2003 5.2)",
  cube_owned_by_opponent: "{side} cannot double: the opponent owns the cube",
  premature_no_cube:
    "{side} cannot double: after a premature roll the player cannot use the cube" +
    " this turn (Italian rules)",
  premature_delay_running:
    "{side} cannot double yet: after a premature action the delay must run out first" +
    " (biba-2014 4.6)",
  no_double_to_answer: "{side} cannot {event}: no double is waiting",
  own_double: "{side} cannot {event} its own double",
  no_offer: "{event} is not allowed: there is no offer to answer",
  own_offer: "{side} cannot {event} its own offer",
  max_concession:
    "{side} cannot reject a backgammon concession: no player may refuse a concession" +
    " of the maximum",
  no_dispute: "ruling is not allowed: there is no dispute to rule on",
  ruling_for_offer: "a rejected offer is ruled 'accept' or 'invalid', not '{decision}'",
  ruling_for_expiry: "a BIBA time expiration is ruled 'gin' or 'lost', not '{decision}'",
  director_must_rule: "{event} is not allowed: the director must rule: gin or lost",
  dispute_open: "{event} is not allowed: the director must rule on the dispute",
  offer_open: "{event} is not allowed: the offer waits for an answer",
  game_over_double_pending: "game over is not allowed: a double is waiting for take or pass",
  break_between_games: "a break is not allowed during a game: breaks are taken between games",
  break_limit: "{side} cannot take another break: {limit} allowed in a {length}-point match",
  not_stopped: "resume is not allowed: the clocks are not stopped",
  not_running: "stop is not allowed: no clock is running",
  invalid: "{message}",
  time_backwards: "time cannot go backwards: {at_ms} ms is before {now_ms} ms",
});

/** Base of every error the engine raises; `code` is stable (see REFUSALS). */
export class ClockError extends Error {
  /**
   * @param {string} message
   * @param {string} [code]
   * @param {Record<string, unknown>} [params]
   */
  constructor(message, code, params) {
    super(message);
    this.name = "ClockError";
    /** @type {string} */
    this.code = code || "invalid";
    /** @type {Record<string, unknown>} */
    this.params = { ...(params || {}) };
    if (this.code === "invalid" && !("message" in this.params)) this.params.message = message;
  }
}

/** The command is malformed: it could never be accepted. */
export class InvalidCommand extends ClockError {
  /**
   * @param {string} message
   * @param {string} [code]
   * @param {Record<string, unknown>} [params]
   */
  constructor(message, code, params) {
    super(message, code || "invalid", params);
    this.name = "InvalidCommand";
  }
}

/** The command is well formed but the rules do not allow it now. */
export class IllegalCommand extends ClockError {
  /**
   * @param {string} message
   * @param {string} [code]
   * @param {Record<string, unknown>} [params]
   */
  constructor(message, code, params) {
    super(message, code || "not_in_phase", params);
    this.name = "IllegalCommand";
  }
}

/**
 * The refusal `code` with its English words made from `params`.
 * @param {string} code
 * @param {Record<string, unknown>} [params]
 * @returns {IllegalCommand}
 */
export function refuse(code, params = {}) {
  const template = REFUSALS[code];
  const words = template.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
  return new IllegalCommand(words, code, params);
}
