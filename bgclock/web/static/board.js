// @ts-check
/* bgclock dashboard: a backgammon board in SVG, read from the position the
 * director typed or entered by clicking checkers on an empty board.
 *
 * A board is {on_roll: Side, opponent: Side, dice: [a, b] | null}; a Side is
 * {points: 24 counts (that side's own point 1 first), bar: n, off: n}, as
 * GET /api/position returns it.  Drawn from the side on roll: its home board
 * is bottom right (points 1..6), the opponent's point q is its point 25 - q. */

const NS = "http://www.w3.org/2000/svg";
export const CHECKERS = 15;

/**
 * @typedef {{points: number[], bar: number, off?: number}} Side
 * @typedef {{on_roll: Side, opponent: Side, dice: number[]|null}} Board
 */

/** @returns {Board} an empty board (every checker borne off). */
export function emptyBoard() {
  const side = () => ({ points: new Array(24).fill(0), bar: 0, off: CHECKERS });
  return { on_roll: side(), opponent: side(), dice: null };
}

/** @param {Side} side @returns {number} checkers on the board (points and bar) */
export function onBoard(side) { return side.points.reduce((a, b) => a + b, 0) + side.bar; }

/**
 * Add (n = 1) or take off (n = -1) a checker of `who` on the on-roll side's point p
 * (1..24) or on the bar (p = 25).  Returns false when it cannot be done
 * (15 on the board, none to take, the point held by the other side).
 * @param {Board} b @param {"on_roll"|"opponent"} who @param {number} p @param {number} n
 * @returns {boolean}
 */
export function place(b, who, p, n) {
  const side = b[who], otherSide = b[who === "on_roll" ? "opponent" : "on_roll"];
  if (p === 25) {
    if (side.bar + n < 0 || (n > 0 && onBoard(side) >= CHECKERS)) return false;
    side.bar += n;
  } else {
    const own = who === "on_roll" ? p : 25 - p;   // the point in that side's own numbering
    const theirs = 25 - own;
    if (side.points[own - 1] + n < 0 || (n > 0 && onBoard(side) >= CHECKERS)) return false;
    if (n > 0 && otherSide.points[theirs - 1] > 0) return false;
    side.points[own - 1] += n;
  }
  side.off = CHECKERS - onBoard(side);
  return true;
}

/** @param {string} tag @param {Object<string, string|number>} attrs @returns {SVGElement} */
function svg(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

/** x of the left edge of the on-roll side's point p (1..24). @param {number} p @returns {number} */
function pointX(p) {
  const idx = p <= 12 ? p - 1 : 24 - p;  // from the right
  return idx < 6 ? 270 - (idx + 1) * 20 : 130 - (idx - 5) * 20;
}

/**
 * The board as an SVG element.
 * @param {Board} b
 * @param {{names?: {on_roll: string, opponent: string},
 *          onPoint?: (p: number, ev: MouseEvent) => void}} [opts]
 *   onPoint: a click (or right-click) on a point 1..24 or the bar (25).
 * @returns {SVGSVGElement}
 */
export function drawBoard(b, opts) {
  opts = opts || {};
  const root = /** @type {SVGSVGElement} */ (svg("svg", { viewBox: "0 0 300 230", class: "bg-board", role: "img" }));
  root.append(svg("rect", { x: 0, y: 0, width: 300, height: 230, class: "b-frame" }));
  root.append(svg("rect", { x: 130, y: 0, width: 20, height: 230, class: "b-bar" }));
  root.append(svg("rect", { x: 275, y: 0, width: 25, height: 230, class: "b-tray" }));
  /** @param {number} x @param {boolean} top @param {number} count @param {string} cls @param {number} p */
  const stack = (x, top, count, cls, p) => {
    const shown = Math.min(count, 5);
    for (let k = 0; k < shown; k++) {
      const cy = top ? 24 + k * 18 : 206 - k * 18;
      root.append(svg("circle", { cx: x + 10, cy: cy, r: 8.5, class: "b-chk " + cls, "data-p": p }));
    }
    if (count > 5) {
      const t = svg("text", { x: x + 10, y: top ? 24 + 4 * 18 + 4 : 206 - 4 * 18 + 4, class: "b-count " + cls, "text-anchor": "middle" });
      t.textContent = String(count);
      root.append(t);
    }
  };
  for (let p = 1; p <= 24; p++) {
    const x = pointX(p), top = p > 12;
    const tip = top ? 105 : 125, base = top ? 15 : 215;
    root.append(svg("polygon", { points: x + "," + base + " " + (x + 20) + "," + base + " " + (x + 10) + "," + tip,
      class: "b-pt " + (p % 2 ? "odd" : "even") }));
    const lbl = svg("text", { x: x + 10, y: top ? 11 : 226, class: "b-num", "text-anchor": "middle" });
    lbl.textContent = String(p);
    root.append(lbl);
    const mine = b.on_roll.points[p - 1], theirs = b.opponent.points[24 - p];
    if (mine) stack(x, top, mine, "me", p);
    if (theirs) stack(x, top, theirs, "them", p);
    const hit = svg("rect", { x: x, y: top ? 0 : 115, width: 20, height: 115, class: "b-hit", "data-point": p });
    root.append(hit);
  }
  // the bar: the side on roll's checkers low, the opponent's high
  stack(130, false, b.on_roll.bar, "me", 25);
  stack(130, true, b.opponent.bar, "them", 25);
  root.append(svg("rect", { x: 130, y: 0, width: 20, height: 230, class: "b-hit", "data-point": 25 }));
  // borne off
  /** @param {number} n @param {boolean} top @param {string} cls */
  const off = (n, top, cls) => {
    const t = svg("text", { x: 287, y: top ? 30 : 205, class: "b-off " + cls, "text-anchor": "middle" });
    t.textContent = String(n);
    root.append(t);
  };
  off(b.opponent.off == null ? CHECKERS - onBoard(b.opponent) : b.opponent.off, true, "them");
  off(b.on_roll.off == null ? CHECKERS - onBoard(b.on_roll) : b.on_roll.off, false, "me");
  if (b.dice) {
    b.dice.forEach((d, i) => {
      root.append(svg("rect", { x: 190 + i * 26, y: 103, width: 22, height: 22, rx: 4, class: "b-die" }));
      const t = svg("text", { x: 201 + i * 26, y: 119, class: "b-die-n", "text-anchor": "middle" });
      t.textContent = String(d);
      root.append(t);
    });
  }
  const onPoint = opts.onPoint;
  if (onPoint) {
    /** @param {MouseEvent} ev */
    const handler = (ev) => {
      const p = Number(/** @type {Element} */ (ev.target).getAttribute("data-point"));
      if (!p) return;
      ev.preventDefault();
      onPoint(p, ev);
    };
    root.addEventListener("click", handler);
    root.addEventListener("contextmenu", handler);
  }
  return root;
}
