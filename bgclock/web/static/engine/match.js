// @ts-check
/* bgclock engine: the match under the clock, one phase machine for every
 * preset (a port of bgclock/core/_match.py; read its "theory of operation").
 *
 * A Match is a fold over events.  Each event carries its instant (integer
 * ms); applying it first advances the match to that instant (a running clock
 * that reaches 0 on the way expires at its exact millisecond), then checks the
 * event and either throws (InvalidCommand / IllegalCommand, with the same
 * stable `code` as the Python core) or changes the state.  Every handler
 * checks everything before it changes anything, so a refused event leaves
 * the match exactly as it was.  Nothing here reads a clock: "now" is always
 * passed in. */

import { InvalidCommand, IllegalCommand, refuse } from "./errors.js";
import { RESULTS, parseEvent } from "./events.js";
import { EXPIRY_BIBA, resolveSettings } from "./presets.js";

/** @typedef {import("./events.js").Event} Event */
/** @typedef {import("./presets.js").ClockSettings} ClockSettings */

export const SETUP = "setup";
export const PLAYING = "playing";
export const STOPPED = "stopped";
export const OFFER = "offer";
export const DISPUTE = "dispute";
export const BETWEEN_GAMES = "between_games";
export const BREAK = "break";
export const MATCH_OVER = "match_over";
export const PHASES = Object.freeze([
  SETUP, PLAYING, STOPPED, OFFER, DISPUTE, BETWEEN_GAMES, BREAK, MATCH_OVER,
]);

/** ABA 5.1: an expired standard clock is reset to five minutes. */
export const ABA_RESET_MS = 5 * 60_000;

const ALL = PHASES;
const NOT_OVER = PHASES.filter((p) => p !== MATCH_OVER);
/** event kind -> phases in which it may be accepted (finer checks in handlers).
 * @type {Readonly<Record<string, readonly string[]>>} */
export const PHASE_RULES = Object.freeze({
  opening_roll: [SETUP, BETWEEN_GAMES, PLAYING, STOPPED], // the last two: late start
  start: [SETUP],
  late_start: [SETUP],
  hit: ALL, // a hit when no clock runs does nothing, as on a real clock
  double: [PLAYING],
  take: [PLAYING],
  pass: [PLAYING, STOPPED],
  stop: [PLAYING],
  resume: [STOPPED, BREAK],
  concede: [PLAYING, STOPPED],
  claim: [PLAYING, STOPPED],
  accept: [OFFER],
  reject: [OFFER],
  ruling: [DISPUTE],
  game_over: [PLAYING, STOPPED],
  break: [SETUP, BETWEEN_GAMES],
  premature: [PLAYING, STOPPED],
  adjust: NOT_OVER,
  penalty: NOT_OVER,
});

/** @type {Readonly<Record<string, string>>} */
const PHASE_WORDS = Object.freeze({
  setup: "before the first game",
  playing: "while a clock runs",
  stopped: "while the clocks are stopped",
  offer: "while an offer waits for an answer",
  dispute: "while the director is summoned",
  between_games: "between games",
  break: "during a break",
  match_over: "after the match is over",
});

/** @typedef {"A" | "B"} SideName */
/** @type {readonly SideName[]} */
const NAMES = ["A", "B"];
/** @param {string | undefined} side @returns {number} */
const index = (side) => (side === "A" ? 0 : 1);

/**
 * One side's clock at an instant.
 * @typedef {object} SideState
 * @property {number} reserve_ms
 * @property {number} delay_ms
 * @property {boolean} running
 * @property {boolean} expired
 * @property {boolean} forfeit_delay
 * @property {number} breaks
 * @property {boolean} overtime  the USBGF overtime option was granted (first expiry)
 * @property {boolean} no_cube  Italian premature: may not double in its next (or live) period
 */

/**
 * The whole match at an instant (the Python core's MatchState.to_dict()).
 * @typedef {object} MatchState
 * @property {number} at_ms
 * @property {string} rules
 * @property {number} length
 * @property {boolean} teams
 * @property {SideState} A
 * @property {SideState} B
 * @property {string} phase
 * @property {string | null} stopped_reason
 * @property {SideName | null} on_turn
 * @property {[number, number]} score
 * @property {{value: number, owner: SideName | null}} cube
 * @property {boolean} crawford
 * @property {boolean} cube_frozen
 * @property {SideName | null} winner
 * @property {number} game
 * @property {SideName | null} double_offered_by
 * @property {{kind: string, side: SideName, result: string} | null} offer
 * @property {string | null} dispute
 * @property {BreakInfo | null} break
 * @property {number | null} expires_at_ms
 */

/**
 * @typedef {object} BreakInfo
 * @property {string} side
 * @property {number} started_ms
 * @property {[number, number]} reserves
 * @property {number | null} limit_ms
 */

/** One side's clock and its standing in the match (mutable, private). */
class Clock {
  /** @param {number} reserve */
  constructor(reserve) {
    this.reserve = reserve; // settled at the match's since when running
    this.allowance = 0; // allowance the live period started with
    this.allowLeft = 0; // what is not yet used of it
    this.inPeriod = false;
    this.forfeitPending = false; // premature: the next period to start is forfeited
    this.forfeitActive = false; // the live period is the forfeited one
    this.noCubePending = false; // Italian premature: the next period may not use the cube
    this.noCubeActive = false;
    // biba-2014 4.6: running time the forfeited period must still run before
    // its side may double (the period's own allowance, whatever the mode).
    this.waitLeft = 0;
    this.expired = false;
    this.breaks = 0;
    this.offenses = 0; // ABA 5.1 expiries that cost penalty points
    this.expiredInGame = false; // ABA 5.1: grace only for the first expiry in a game
    this.overtimeUsed = false; // USBGF overtime option: granted once a match
  }

  /** @returns {Clock} */
  copy() {
    return Object.assign(Object.create(Clock.prototype), this);
  }
}

/** @typedef {[string, number, string]} Offer  (kind, side, result) */

/**
 * The match's opening figures, as a clock script's `match` gives them.
 * @typedef {object} MatchOptions
 * @property {number} length
 * @property {[number, number]} [score]
 * @property {boolean} [teams]
 * @property {boolean} [crawford]
 * @property {Record<string, unknown> | null} [clock]  the director's overrides
 */

/** A match under the clock: apply events, read the state at an instant. */
export class Match {
  /**
   * @param {ClockSettings} settings
   * @param {boolean} [crawford]  the first game under the clock is the Crawford game
   */
  constructor(settings, crawford = false) {
    this.settings = settings;
    this.now = 0;
    /** @type {string} */
    this.phase = SETUP;
    /** @type {string | null} */
    this.stoppedReason = null;
    /** @type {number | null} */
    this.onTurn = null;
    this.since = 0;
    /** @type {[Clock, Clock]} */
    this.clocks = [new Clock(settings.reserve_ms), new Clock(settings.reserve_ms)];
    /** @type {[number, number]} */
    this.score = [settings.score[0], settings.score[1]];
    this.cubeValue = 1;
    /** @type {number | null} */
    this.cubeOwner = null;
    /** @type {number | null} a double is pending */
    this.doubler = null;
    this.game = 0;
    this.gameOn = false; // a game is in progress
    this.late = false; // a late player's clock runs before the first game
    const needsOne = settings.score.some((s) => s === settings.length - 1);
    this.crawfordNow = false;
    this.crawfordPending = !!crawford;
    // Without the flag, a side already at match point means the Crawford game
    // was played before the clock came (clock-script "match.crawford").
    this.crawfordDone = needsOne && !crawford;
    this.cubeFrozen = false;
    this.freezeNext = false;
    /** @type {number | null} */
    this.winner = null;
    /** @type {Offer | null} */
    this.offer = null;
    /** @type {string | null} "offer" or "time_expired" */
    this.dispute = null;
    /** @type {string} */
    this.breakFrom = SETUP;
    /** @type {BreakInfo | null} */
    this.breakInfo = null;
  }

  /**
   * A match in `setup` under preset `rules` with the director's overrides.
   * @param {string} rules
   * @param {MatchOptions} opts
   * @returns {Match}
   */
  static create(rules, opts) {
    const settings = resolveSettings(rules, {
      length: opts.length, score: opts.score, teams: opts.teams, overrides: opts.clock,
    });
    return new Match(settings, !!opts.crawford);
  }

  /** An independent copy of this match (the state, not a log). @returns {Match} */
  copy() {
    /** @type {Match} */
    const other = Object.assign(Object.create(Match.prototype), this);
    other.clocks = [this.clocks[0].copy(), this.clocks[1].copy()];
    other.score = [this.score[0], this.score[1]];
    other.breakInfo = this.breakInfo ? { ...this.breakInfo } : null;
    return other;
  }

  // ---------------------------------------------------------------- time

  /** The instant the running clock reaches 0, or null if none runs. @returns {number | null} */
  expiresAt() {
    if (this.phase !== PLAYING || this.onTurn === null) return null;
    const c = this.clocks[this.onTurn];
    return this.since + this.settings.mode.timeToExpiry(c.reserve, c.allowLeft);
  }

  /**
   * Move the match's time to `atMs`, applying an expiry on the way.
   * @param {number} atMs
   */
  advance(atMs) {
    if (atMs < this.now) {
      throw new InvalidCommand(
        `time cannot go backwards: ${atMs} ms is before ${this.now} ms`,
        "time_backwards", { at_ms: atMs, now_ms: this.now });
    }
    const expiry = this.expiresAt();
    if (expiry !== null && expiry <= atMs) {
      this.settle(expiry);
      this.expire(expiry);
    }
    this.now = atMs;
  }

  /** Bring the running clock's stored figures to instant `t`. @param {number} t */
  settle(t) {
    if (this.phase === PLAYING && this.onTurn !== null) {
      const c = this.clocks[this.onTurn];
      [c.reserve, c.allowLeft] = this.settings.mode.spend(c.reserve, c.allowLeft, t - this.since);
      c.waitLeft = Math.max(0, c.waitLeft - (t - this.since));
    }
    this.since = t;
  }

  // ------------------------------------------------------------ applying

  /**
   * Apply one event (validated first, as `parseEvent` does); throw a
   * ClockError and change nothing if it is refused.
   * @param {Event | Record<string, unknown>} raw
   */
  apply(raw) {
    const e = parseEvent(raw);
    this.advance(e.at_ms);
    if (!PHASE_RULES[e.do].includes(this.phase)) throw this.phaseRefusal(e.do);
    HANDLERS[e.do](this, e);
    // An event can leave a running clock at 0 (a Bronstein period started on
    // an empty reserve, or an adjust): it expires at this very instant.
    this.advance(e.at_ms);
  }

  /** Why an event of `kind` cannot be taken in this phase.
   * @param {string} kind @returns {IllegalCommand} */
  phaseRefusal(kind) {
    const phase = this.phase;
    const words = kind.replace(/_/g, " ");
    if (phase === MATCH_OVER) return refuse("match_over", { event: words });
    if (kind === "accept" || kind === "reject") return refuse("no_offer", { event: words });
    if (kind === "ruling") return refuse("no_dispute");
    if (kind === "break" && [PLAYING, STOPPED, OFFER, DISPUTE].includes(phase)) {
      return refuse("break_between_games");
    }
    if (kind === "start") {
      if (phase === BETWEEN_GAMES && !this.settings.preset.mid_game_start) {
        return refuse("start_at_game_start", { rules: this.settings.preset.id });
      }
      return refuse("clock_in_use", { event: words });
    }
    if (kind === "late_start") return refuse("clock_in_use", { event: words });
    if (phase === DISPUTE) {
      if (this.dispute === "time_expired") return refuse("director_must_rule", { event: words });
      return refuse("dispute_open", { event: words });
    }
    if (phase === OFFER) return refuse("offer_open", { event: words });
    if (kind === "resume") return refuse("not_stopped");
    if (kind === "stop") return refuse("not_running");
    if (["double", "take", "game_over", "concede", "claim", "premature", "pass"].includes(kind) &&
        [SETUP, BETWEEN_GAMES, BREAK].includes(phase)) {
      return refuse("no_game", { event: words });
    }
    return refuse("not_in_phase", { event: words, when: PHASE_WORDS[phase], phase });
  }

  // -------------------------------------------------------- period logic

  /** @param {number} side @param {number} t */
  startPeriod(side, t) {
    const c = this.clocks[side];
    const forfeited = c.forfeitPending;
    c.forfeitPending = false;
    c.forfeitActive = forfeited;
    c.noCubeActive = c.noCubePending;
    c.noCubePending = false;
    const mode = this.settings.mode, delay = this.settings.delay_ms;
    c.allowance = c.allowLeft = mode.periodAllowance(delay, forfeited);
    c.waitLeft = forfeited && this.settings.preset.id === "biba-2014"
      ? mode.periodAllowance(delay, false) : 0;
    c.inPeriod = true;
    this.onTurn = side;
    this.phase = PLAYING;
    this.stoppedReason = null;
    this.since = t;
  }

  /** @param {number} side @param {boolean} credit */
  endPeriod(side, credit) {
    const c = this.clocks[side];
    if (credit) c.reserve += this.settings.mode.credit(c.allowance, c.allowLeft);
    c.inPeriod = false;
    c.forfeitActive = false;
    c.noCubeActive = false;
    c.allowance = c.allowLeft = c.waitLeft = 0;
  }

  /** `side` ends its period with its credit; the opponent's starts.
   * @param {number} side @param {number} t */
  passClock(side, t) {
    this.settle(t);
    this.endPeriod(side, true);
    this.startPeriod(1 - side, t);
  }

  /** Both clocks stop for good: live periods end with no credit. */
  stopAll() {
    for (const side of [0, 1]) if (this.clocks[side].inPeriod) this.endPeriod(side, false);
    this.onTurn = null;
    this.doubler = null;
    this.offer = null;
    this.dispute = null;
    this.late = false;
  }

  /** @param {number} side */
  needs(side) {
    return this.settings.length - this.score[side];
  }

  // ------------------------------------------------ scoring and endings

  /** Score `points` for `side`; true when that wins the match.
   * @param {number} side @param {number} points @param {boolean} penalty */
  addPoints(side, points, penalty) {
    this.score[side] += points;
    if (this.score[side] >= this.settings.length) return true;
    const atMatchPoint = this.score[side] === this.settings.length - 1;
    if (atMatchPoint && !this.crawfordDone && !this.crawfordPending) {
      this.crawfordPending = true; // the next game is the Crawford game
    }
    if (penalty && atMatchPoint && this.settings.preset.id.startsWith("aba-")) {
      // aba-2003 5.2: frozen for the rest of this game and the next.
      if (this.gameOn) this.cubeFrozen = true;
      this.freezeNext = true;
    }
    return false;
  }

  /** @param {number} winner @param {string | null} reason */
  finishMatch(winner, reason) {
    this.stopAll();
    this.gameOn = false;
    this.phase = MATCH_OVER;
    this.stoppedReason = reason;
    this.winner = winner;
    this.crawfordNow = this.crawfordPending = false;
    this.cubeFrozen = this.freezeNext = false;
    this.breakInfo = null;
  }

  /** @param {number} winner @param {number} points @param {number} t */
  endGame(winner, points, t) {
    this.settle(t);
    this.stopAll();
    this.gameOn = false;
    this.crawfordNow = false;
    this.cubeFrozen = false;
    if (this.addPoints(winner, points, false)) {
      this.finishMatch(winner, null);
      return;
    }
    this.phase = BETWEEN_GAMES;
    this.stoppedReason = null;
  }

  /** Both clocks stop; the expired clock is set to `reserve`, its period's
   * running time counted from 0 again on resume.
   * @param {Clock} c @param {number} reserve */
  resetExpired(c, reserve) {
    this.phase = STOPPED;
    this.stoppedReason = "time_expired";
    c.reserve = reserve;
    c.allowLeft = c.allowance;
    c.expired = false;
  }

  /** The running side's clock reached 0 at `t`: the preset's consequence.
   * @param {number} _t */
  expire(_t) {
    const side = /** @type {number} */ (this.onTurn);
    const c = this.clocks[side];
    c.reserve = 0;
    c.expired = true;
    const s = this.settings;
    if (s.penalty_on_expiry) {
      // aba-2003 5.1: stop, then grace, or penalty points and a 5:00 reset.
      this.phase = STOPPED;
      this.stoppedReason = "time_expired";
      const everyResultEnds = this.gameOn && [0, 1].every((x) => this.needs(x) <= this.cubeValue);
      const firstInGame = !c.expiredInGame;
      c.expiredInGame = true;
      if (!(everyResultEnds && firstInGame)) {
        c.offenses += 1;
        const points = c.offenses === 1 ? 2 : 1;
        if (this.addPoints(1 - side, points, true)) {
          this.finishMatch(1 - side, "time_expired");
          return;
        }
      }
      this.resetExpired(c, ABA_RESET_MS);
      return;
    }
    if (s.overtime_ms > 0 && !c.overtimeUsed) {
      // USBGF Rules Options, Overtime: the first expiry in the match stops
      // both clocks and gives the side its overtime, as the ABA reset does.
      c.overtimeUsed = true;
      this.resetExpired(c, s.overtime_ms);
      return;
    }
    if (s.preset.expiry === EXPIRY_BIBA && this.gameOn && this.needs(side) <= 3 * this.cubeValue) {
      // biba-2014 Time Expiration: the director decides whether it is gin.
      this.phase = DISPUTE;
      this.stoppedReason = "time_expired";
      this.dispute = "time_expired";
      return;
    }
    this.finishMatch(1 - side, "time_expired");
  }

  newGame() {
    this.game += 1;
    this.gameOn = true;
    this.cubeValue = 1;
    this.cubeOwner = null;
    this.doubler = null;
    this.crawfordNow = this.crawfordPending;
    if (this.crawfordPending) {
      this.crawfordDone = true;
      this.crawfordPending = false;
    }
    this.cubeFrozen = this.freezeNext;
    this.freezeNext = false;
    for (const c of this.clocks) c.expiredInGame = false;
  }

  /** @param {string} side @param {string} action @returns {number} */
  doubledSide(side, action) {
    if (this.doubler === null) throw refuse("no_double_to_answer", { side, event: action });
    if (index(side) === this.doubler) throw refuse("own_double", { side, event: action });
    return 1 - this.doubler;
  }

  /** @param {string} side @param {string} action @returns {Offer} */
  answerer(side, action) {
    const offer = /** @type {Offer} */ (this.offer);
    if (index(side) === offer[1]) throw refuse("own_offer", { side, event: action });
    return offer;
  }

  /** @param {Offer} offer @param {number} t */
  settleOffer(offer, t) {
    const [kind, offerer, result] = offer;
    const winner = kind === "concede" ? 1 - offerer : offerer;
    this.endGame(winner, RESULTS[result] * this.cubeValue, t);
  }

  // ------------------------------------------------------------ reading

  /**
   * The state at `atMs` (default: the match's current instant); advancing
   * time may apply an expiry on the way.
   * @param {number} [atMs]
   * @returns {MatchState}
   */
  state(atMs) {
    if (atMs !== undefined) this.advance(atMs);
    const t = this.now;
    const mode = this.settings.mode;
    const delay = this.settings.delay_ms;
    /** @type {SideState[]} */
    const sides = this.clocks.map((c, i) => {
      const running = this.phase === PLAYING && this.onTurn === i;
      const [reserve, allowLeft] = running
        ? mode.spend(c.reserve, c.allowLeft, t - this.since)
        : [c.reserve, c.allowLeft];
      return {
        reserve_ms: reserve,
        delay_ms: c.inPeriod ? allowLeft : mode.idleDelay(delay, c.forfeitPending),
        running,
        expired: c.expired,
        forfeit_delay: c.forfeitPending || c.forfeitActive,
        breaks: c.breaks,
        overtime: c.overtimeUsed,
        no_cube: c.noCubePending || c.noCubeActive,
      };
    });
    const over = this.phase === MATCH_OVER;
    const showsTurn = [PLAYING, STOPPED, OFFER, DISPUTE].includes(this.phase);
    const offer = this.offer === null ? null
      : { kind: this.offer[0], side: NAMES[this.offer[1]], result: this.offer[2] };
    return {
      at_ms: t,
      rules: this.settings.preset.id,
      length: this.settings.length,
      teams: this.settings.teams,
      A: sides[0],
      B: sides[1],
      phase: this.phase,
      stopped_reason: this.stoppedReason,
      on_turn: showsTurn && this.onTurn !== null ? NAMES[this.onTurn] : null,
      score: [this.score[0], this.score[1]],
      cube: { value: this.cubeValue, owner: this.cubeOwner === null ? null : NAMES[this.cubeOwner] },
      crawford: over ? false : (this.gameOn ? this.crawfordNow : this.crawfordPending),
      cube_frozen: over ? false : (this.gameOn ? this.cubeFrozen : this.freezeNext),
      winner: this.winner === null ? null : NAMES[this.winner],
      game: this.game,
      double_offered_by: this.doubler === null ? null : NAMES[this.doubler],
      offer,
      dispute: this.dispute,
      break: this.breakInfo ? { ...this.breakInfo } : null,
      expires_at_ms: this.expiresAt(),
    };
  }
}

/** kind -> handler; each checks everything before it changes anything.
 * @type {Readonly<Record<string, (m: Match, e: Event) => void>>} */
const HANDLERS = Object.freeze({
  opening_roll(m, e) {
    const [a, b] = /** @type {[number, number]} */ (e.dice);
    if ((m.phase === PLAYING || m.phase === STOPPED) && !m.late) throw refuse("opening_roll_in_game");
    if (a === b) throw refuse("opening_dice_equal", { a, b });
    if (m.late && m.onTurn !== null) {
      // The late player's period ends as at a game's end (no credit).
      m.settle(e.at_ms);
      m.endPeriod(m.onTurn, false);
      m.late = false;
    }
    m.newGame();
    m.breakInfo = null;
    m.startPeriod(a > b ? 0 : 1, e.at_ms);
  },

  start(m, e) {
    const preset = m.settings.preset;
    if (!preset.mid_game_start) throw refuse("start_at_game_start", { rules: preset.id });
    // The cube as it stands when the clock arrives: a game already doubled goes
    // on at its value, and only the owner may redouble.
    const value = e.cube ? e.cube.value : 1;
    const owner = e.cube ? e.cube.owner : null;
    if (owner === null && value > 1) throw refuse("start_cube_centered", { value });
    if (owner !== null && value === 1) throw refuse("start_cube_owned_at_one", { side: owner });
    if (value > 1 && m.crawfordPending) throw refuse("start_cube_crawford", { value });
    m.newGame();
    m.cubeValue = value;
    m.cubeOwner = owner === null ? null : index(owner);
    m.startPeriod(index(e.side), e.at_ms);
  },

  late_start(m, e) {
    m.late = true;
    m.startPeriod(index(e.side), e.at_ms);
  },

  hit(m, e) {
    const side = index(e.side);
    if (m.phase !== PLAYING || side !== m.onTurn) return; // the idle side's button does nothing
    if (m.doubler !== null) throw refuse("doubled_must_answer", { side: e.side });
    if (m.late) return; // no game yet: the late player's clock runs on
    m.passClock(side, e.at_ms);
  },

  double(m, e) {
    const side = index(e.side);
    const who = e.side;
    if (m.late || !m.gameOn) throw refuse("no_game", { event: "double" });
    if (m.doubler !== null) throw refuse("double_pending", { side: who });
    if (side !== m.onTurn) throw refuse("double_not_turn", { side: who });
    if (m.crawfordNow) throw refuse("crawford_no_double", { side: who });
    if (m.cubeFrozen) throw refuse("cube_frozen", { side: who });
    if (m.cubeOwner !== null && m.cubeOwner !== side) throw refuse("cube_owned_by_opponent", { side: who });
    const c = m.clocks[side];
    // Italian rules: "A premature roller cannot use the cube".
    if (c.noCubeActive) throw refuse("premature_no_cube", { side: who });
    if (c.waitLeft - (e.at_ms - m.since) > 0) {
      // biba-2014 4.6: "cannot ... continue with their double ... until their
      // 12 seconds have elapsed" (the period's running time, stops excluded,
      // under every mode: docs/rules.md).
      throw refuse("premature_delay_running", { side: who });
    }
    m.passClock(side, e.at_ms);
    m.doubler = side;
  },

  take(m, e) {
    const side = m.doubledSide(/** @type {string} */ (e.side), "take");
    m.passClock(side, e.at_ms);
    m.cubeValue *= 2;
    m.cubeOwner = side;
    m.doubler = null;
  },

  pass(m, e) {
    m.doubledSide(/** @type {string} */ (e.side), "pass");
    m.endGame(/** @type {number} */ (m.doubler), m.cubeValue, e.at_ms);
  },

  stop(m, e) {
    m.settle(e.at_ms);
    m.phase = STOPPED;
    m.stoppedReason = /** @type {string} */ (e.reason);
  },

  resume(m, e) {
    if (m.phase === BREAK) {
      m.phase = m.breakFrom;
      m.stoppedReason = null;
      m.breakInfo = null;
      return;
    }
    m.phase = PLAYING;
    m.stoppedReason = null;
    m.since = e.at_ms;
  },

  concede(m, e) { offer(m, e); },
  claim(m, e) { offer(m, e); },

  accept(m, e) {
    m.settleOffer(m.answerer(/** @type {string} */ (e.side), "accept"), e.at_ms);
  },

  reject(m, e) {
    const [kind, , result] = m.answerer(/** @type {string} */ (e.side), "reject");
    if (kind === "concede" && result === "backgammon" && m.settings.preset.id === "it-tournament") {
      throw refuse("max_concession", { side: e.side });
    }
    m.phase = DISPUTE;
    m.stoppedReason = "dispute";
    m.dispute = "offer";
  },

  ruling(m, e) {
    if (m.dispute === "offer") {
      if (e.decision !== "accept" && e.decision !== "invalid") {
        throw refuse("ruling_for_offer", { decision: e.decision });
      }
      if (e.decision === "accept") {
        m.settleOffer(/** @type {Offer} */ (m.offer), e.at_ms);
        return;
      }
      // The offer is invalid: the clock that ran before it runs again.
      m.offer = null;
      m.dispute = null;
      m.phase = PLAYING;
      m.stoppedReason = null;
      m.since = e.at_ms;
      return;
    }
    if (e.decision !== "gin" && e.decision !== "lost") {
      throw refuse("ruling_for_expiry", { decision: e.decision });
    }
    const expired = /** @type {number} */ (m.onTurn);
    if (e.decision === "gin") {
      // biba-2014: gammons and backgammons count x cube for the expired side.
      if (m.addPoints(expired, RESULTS[/** @type {string} */ (e.result)] * m.cubeValue, false)) {
        m.finishMatch(expired, null);
        return;
      }
    }
    m.finishMatch(1 - expired, "time_expired");
  },

  game_over(m, e) {
    if (!m.gameOn) throw refuse("no_game", { event: "game over" });
    if (m.doubler !== null) throw refuse("game_over_double_pending");
    m.endGame(index(e.winner), RESULTS[/** @type {string} */ (e.result)] * m.cubeValue, e.at_ms);
  },

  break(m, e) {
    const side = index(e.side);
    const c = m.clocks[side];
    const limit = m.settings.max_breaks;
    if (limit !== null && c.breaks >= limit) {
      throw refuse("break_limit", { side: e.side, limit, length: m.settings.length });
    }
    c.breaks += 1;
    m.breakFrom = m.phase;
    m.phase = BREAK;
    m.stoppedReason = "break";
    m.breakInfo = {
      side: /** @type {string} */ (e.side),
      started_ms: e.at_ms,
      reserves: [m.clocks[0].reserve, m.clocks[1].reserve],
      limit_ms: m.settings.preset.break_ms,
    };
  },

  premature(m, e) {
    if (!m.gameOn) throw refuse("no_game", { event: "premature" });
    // The next period to start for that side is forfeited; a second premature
    // before it starts changes nothing.  The Italian rules have no time
    // penalty: that period may not use the cube instead.
    const c = m.clocks[index(e.side)];
    if (m.settings.preset.id === "it-tournament") c.noCubePending = true;
    else c.forfeitPending = true;
  },

  adjust(m, e) {
    const side = index(e.side);
    m.settle(e.at_ms);
    const delta = /** @type {number} */ (e.delta_ms);
    if (delta === 0) return; // an adjust of 0 changes nothing
    const c = m.clocks[side];
    c.reserve = Math.max(0, c.reserve + delta);
    if (delta > 0) c.expired = false;
    // A running side whose time is now used up expires at this instant:
    // `apply` advances once more after the handler.
  },

  penalty(m, e) {
    const side = index(e.side);
    m.settle(e.at_ms);
    if (m.addPoints(side, /** @type {number} */ (e.points), true)) m.finishMatch(side, null);
  },
});

/** @param {Match} m @param {Event} e */
function offer(m, e) {
  if (!m.gameOn) throw refuse("no_game", { event: e.do });
  m.settle(e.at_ms);
  m.phase = OFFER;
  m.stoppedReason = "concession";
  m.offer = [e.do, index(e.side), /** @type {string} */ (e.result)];
}

/**
 * Fold a log of accepted events into the match they made.
 * @param {Array<Event | Record<string, unknown>>} events
 * @param {string} rules
 * @param {MatchOptions} opts
 * @returns {Match}
 */
export function replay(events, rules, opts) {
  const m = Match.create(rules, opts);
  for (const e of events) m.apply(e);
  return m;
}
