import { ascending, contains, MAX_ROLLS, N_DICE } from "./dice.js";
import { faces, formatSeed, ME, parseSeed } from "./practice-dice.js";
import { defaultVariant, knownVariant, nCategories, pointsOf, possible } from "./rules.js";

export const CATEGORY_LETTERS = "abcdefghijkl";
// The position -------------------------------------------------------------------------------

/** The position shown: the names are those of yacht.core.position.Position. In a game it is the
 * game's current position (the dice being entered included), derived by sync(). */

/** The query of the position, as yacht.core.position.format_query writes it.
 * Dice still being entered (fewer than five) are not part of the position: r=0 then.
 * `opponent`: the opponent's sheet (o=) or null; `target`: a score to reach (t=) or null. */
export function formatQuery({ sheet, dice, roll, variant, opponent = null, target = null }) {
  const parts = [`s=${sheet.map((v) => v ?? "").join(",")}`];
  const complete = dice.length === N_DICE;
  if (complete) parts.push(`d=${dice.join("")}`);
  parts.push(`r=${complete ? roll : 0}`);
  if (variant !== defaultVariant()) parts.push(`v=${variant}`);
  if (opponent) parts.push(`o=${opponent.map((v) => v ?? "").join(",")}`);
  if (target !== null) parts.push(`t=${target}`);
  return parts.join("&");
}

/** The sheet of an `s` value: twelve fields, each empty or a score the category can take. */
export function readSheet(text, variant, lenient) {
  const fields = (text ?? "").split(",");
  const ok = fields.length === nCategories();
  if (!ok && !lenient) return null;
  const sheet = Array.from({ length: nCategories() }, (_, c) => {
    const field = ok ? fields[c] : "";
    const value = /^[0-9]{1,3}$/.test(field) ? Number(field) : null;
    return value !== null && possible(variant, c).includes(value) ? value : field === "" ? null : undefined;
  });
  if (!lenient && sheet.includes(undefined)) return null;
  return sheet.map((v) => v ?? null);
}

/** The score to reach of a query's `t`: a whole number 0–999, else null (absent or not valid). */
function readTarget(params) {
  const t = params.get("t") ?? "";
  return /^[0-9]{1,3}$/.test(t) ? Number(t) : null;
}

/** A position from a query, taking what is valid and leaving the rest empty.
 * Only for showing something at once: Python decides whether a link is valid. */
export function readQuery(query) {
  const params = new URLSearchParams(query);
  const variant = knownVariant(params.get("v")) ? params.get("v") : defaultVariant();
  const sheet = readSheet(params.get("s"), variant, true);
  const d = params.get("d") ?? "";
  const dice = /^[1-6]{5}$/.test(d) ? [...d].map(Number) : [];
  const r = params.get("r") ?? "0";
  const roll = /^[0-3]$/.test(r) && dice.length === N_DICE ? Number(r) : 0;
  const opponent = params.has("o") ? readSheet(params.get("o"), variant, true) : null;
  const target = readTarget(params);
  return { sheet, dice, roll, variant, opponent, target: opponent ? null : target };
}

// The game record ------------------------------------------------------------------------------
//
// game = {sheet, firstRoll, variant, turns, opponent, target, practice, keep}: as yacht.play.game.Game
// (the start sheet, the roll of the first dice, the rules, the turns {rolls, keeps, category}, the
// opponent {sheet: theirs at the start, turns: [{category, points}]} or null/absent: none
// recorded, the score to reach or null/absent: none, a practice game's seed or null/absent), plus
// `keep`: the dice kept for a reroll whose dice are not entered yet (null when none). `entry`:
// the new dice entered so far for that reroll, or for a new turn's first roll. null: no game, a
// position is entered.

export const isGameQuery = (query) => new URLSearchParams(query).has("h");

export const formatDice = (dice) => dice.join("");

export function formatTurn(turn) {
  const pieces = [formatDice(turn.rolls[0])];
  turn.keeps.forEach((keep, i) => {
    pieces.push(formatDice(keep), formatDice(turn.rolls[i + 1]));
  });
  return pieces.join("-") + (turn.category === null ? "" : CATEGORY_LETTERS[turn.category]);
}

const formatSheet = (sheet) => sheet.map((v) => v ?? "").join(",");

/** The `oh` value of the opponent's turns, as yacht.play.game.format_opponent_turns writes it. */
export const formatOpponentTurns = (turns) => turns.map((t) => CATEGORY_LETTERS[t.category] + t.points).join("");

/** The canonical query of a game, as yacht.play.game.format_game writes it (the waiting keep is not part of it). */
export function formatGame(g) {
  const parts = [];
  const opponent = g.opponent ?? null;
  if (g.sheet.some((v) => v !== null)) parts.push(`s=${formatSheet(g.sheet)}`);
  if (g.firstRoll !== 1) parts.push(`r=${g.firstRoll}`);
  if (g.variant !== defaultVariant()) parts.push(`v=${g.variant}`);
  if ((g.practice ?? null) !== null) parts.push(`p=${formatSeed(g.practice)}`);
  if (opponent && opponent.sheet.some((v) => v !== null)) parts.push(`o=${formatSheet(opponent.sheet)}`);
  if ((g.target ?? null) !== null) parts.push(`t=${g.target}`);
  parts.push(`h=${g.turns.map(formatTurn).join(".")}`);
  if (opponent) parts.push(`oh=${formatOpponentTurns(opponent.turns)}`);
  return parts.join("&");
}

/** Whether the kept query `a` is `b` at one of its moments, as yacht.play.same_game.is_step
 * decides (held to it by the golden cases): on canonical game queries, every parameter but the
 * records h= and oh= equal, and a's h= and oh= each the beginning of b's, cut where a roll, a
 * category or an opponent's turn ends (b's next character is no digit). A position query is a
 * step only of itself. */
export function isStepOf(a, b) {
  if (a === b) return true;
  if (!isGameQuery(a) || !isGameQuery(b)) return false;
  const [x, y] = [queryParams(a), queryParams(b)];
  if (x.size !== y.size) return false;
  for (const [key, u] of x) {
    const v = y.get(key);
    if (v === undefined || (key === "h" || key === "oh" ? !recordStep(u, v) : u !== v)) return false;
  }
  return true;
}

/** Whether two kept queries are one game (yacht.play.same_game.same_game): either is a step of
 * the other. Two games that share a start and then differ are two. */
export const sameGame = (a, b) => isStepOf(a, b) || isStepOf(b, a);

const queryParams = (query) =>
  new Map(query.split("&").map((part) => [part.split("=")[0], part.slice(part.indexOf("=") + 1)]));
const recordStep = (u, v) => v.startsWith(u) && (u === "" || u.length === v.length || !/[0-9]/.test(v[u.length]));

export const TURN_PATTERN = /^([1-6]{5})(?:-([1-6]{0,4})-([1-6]{5}))?(?:-([1-6]{0,4})-([1-6]{5}))?([a-l]?)$/;
export const digits = (text) => [...text].map(Number);

/** A game from a query, or null when JavaScript cannot read it as a legal game. Only for showing
 * it at once and for building on the canonical queries Python returns: Python decides. */
export function parseGame(query) {
  const params = new URLSearchParams(query);
  const names = [...params.keys()];
  if (!params.has("h") || params.has("d") || new Set(names).size !== names.length) return null;
  const variant = params.get("v") ?? defaultVariant();
  if (!knownVariant(variant)) return null;
  const sheet = params.has("s") ? readSheet(params.get("s"), variant, false) : Array(nCategories()).fill(null);
  const r = params.get("r") ?? "1";
  if (sheet === null || !/^[1-3]$/.test(r)) return null;
  const h = params.get("h");
  const turns = [];
  for (const part of h === "" ? [] : h.split(".")) {
    const m = TURN_PATTERN.exec(part);
    if (!m) return null;
    const rolls = [m[1], m[3], m[5]].filter((x) => x !== undefined).map(digits);
    const keeps = [m[2], m[4]].filter((x) => x !== undefined).map((k) => ascending(digits(k)));
    turns.push({ rolls, keeps, category: m[6] ? CATEGORY_LETTERS.indexOf(m[6]) : null });
  }
  const opponent = readOpponent(params, variant, sheet);
  if (opponent === undefined) return null;
  const target = readTarget(params);
  if (params.has("t") && (target === null || opponent !== null)) return null;
  const practice = params.has("p") ? parseSeed(params.get("p")) : null;
  if (params.has("p") && !practiceStart(practice, sheet, r, opponent, params.has("t"))) return null;
  const g = { sheet, firstRoll: Number(r), variant, turns, opponent, target, practice, keep: null };
  return legalGame(g) ? g : null;
}

/** Whether a practice record starts as one (yacht.play.game._parse_practice): a seed, empty sheets,
 * roll 1, no score to reach. */
function practiceStart(seed, sheet, r, opponent, hasTarget) {
  const empty = (s) => s.every((v) => v === null);
  return seed !== null && empty(sheet) && r === "1" && !hasTarget && (opponent === null || empty(opponent.sheet));
}

/** Whether the rolls of my turn `number` hold the practice's dice (yacht.play.game._check_practice_dice):
 * the kept ones and the first faces of each roll, as multisets. */
export function practiceDiceFit(seed, number, turn) {
  const sorted = (dice) => [...dice].sort().join("");
  return turn.rolls.every((dice, j) => {
    const kept = j > 0 ? turn.keeps[j - 1] : [];
    const thrown = faces(seed, ME, number, j + 1).slice(0, 5 - kept.length);
    return sorted(dice) === sorted([...kept, ...thrown]);
  });
}

const filledCount = (sheet) => sheet.filter((v) => v !== null).length;

/** The opponent of a game query: null without `o` and `oh`, undefined when they cannot be read
 * (yacht.play.game.parse_game: their sheet, the turn order at the start, each turn's points). */
function readOpponent(params, variant, mine) {
  if (!params.has("o") && !params.has("oh")) return null;
  const sheet = params.has("o") ? readSheet(params.get("o"), variant, false) : Array(nCategories()).fill(null);
  if (sheet === null || seatOf(mine, sheet) === null) return undefined;
  const oh = params.get("oh") ?? "";
  if (!/^(?:[a-l][0-9]{1,3})*$/.test(oh)) return undefined;
  const turns = [...oh.matchAll(/([a-l])([0-9]+)/g)].map((m) => ({
    category: CATEGORY_LETTERS.indexOf(m[1]),
    points: Number(m[2]),
  }));
  return turns.every((t) => possible(variant, t.category).includes(t.points)) ? { sheet, turns } : undefined;
}

/** How many categories the opponent may have filled at my turn (yacht.core.position.check_turn_order):
 * [if I sit first, if I sit second], i.e. as many as mine or one more; 11 or 12 once mine is full. */
export function turnOrderCounts(mine) {
  const m = filledCount(mine);
  return m === nCategories() ? [m - 1, m] : [m, m + 1];
}

/** 1 when I sit first, 2 when second, null when it cannot be my turn. With my sheet full the
 * opponent's 11 or 12 both mean I sat first (the game ends on my turn or on theirs). */
function seatOf(mine, theirs) {
  const t = filledCount(theirs);
  const [first, second] = turnOrderCounts(mine);
  if (t !== first && t !== second) return null;
  return t === first || filledCount(mine) === nCategories() ? 1 : 2;
}

/** The checks of yacht.play.game.replay: kept dice in the dice before and after, a category used
 * once, no turn after the sheet is full, at most three rolls a turn, only the last turn open;
 * the opponent's turns in the order the record implies (their i-th after my i-th), each in a
 * category of theirs still free. */
export function legalGame(g) {
  const sheet = [...g.sheet];
  const rival = g.opponent
    ? { sheet: [...g.opponent.sheet], played: 0, seat: seatOf(g.sheet, g.opponent.sheet) }
    : null;
  const rivalPlays = () => {
    const turn = rival.played < g.opponent.turns.length ? g.opponent.turns[rival.played] : null;
    if (!turn || rival.sheet[turn.category] !== null) return false;
    rival.sheet[turn.category] = turn.points;
    rival.played += 1;
    return true;
  };
  const mine = g.turns.every((turn, i) => {
    if (sheet.every((v) => v !== null)) return false;
    if (rival && i > 0 && !rivalPlays()) return false;
    if (turn.category === null && i < g.turns.length - 1) return false;
    if (firstRollOf(g, i) + turn.rolls.length - 1 > MAX_ROLLS) return false;
    const keepsFit = turn.keeps.every((k, j) => contains(turn.rolls[j], k) && contains(turn.rolls[j + 1], k));
    if (!keepsFit) return false;
    if ((g.practice ?? null) !== null && !practiceDiceFit(g.practice, filledCount(g.sheet) + i + 1, turn)) return false;
    if (turn.category === null) return true;
    if (sheet[turn.category] !== null) return false;
    sheet[turn.category] = pointsOf(turn.rolls.at(-1), turn.category, g.variant);
    return true;
  });
  if (!mine || !rival || rival.played === g.opponent.turns.length) return mine;
  const finished = g.turns.length === 0 || g.turns.at(-1).category !== null;
  const due = filledCount(rival.sheet) < filledCount(sheet) + (rival.seat === 1 ? 0 : 1);
  return finished && due && rivalPlays() && rival.played === g.opponent.turns.length;
}

export const firstRollOf = (g, i) => (i === 0 ? g.firstRoll : 1);

/** The number of decisions recorded: keeps and categories. */
export const decisionCount = (g) =>
  g.turns.reduce((n, turn) => n + turn.keeps.length + (turn.category === null ? 0 : 1), 0);

/** Whether `keep` can wait for its dice at the end of `g`: the last turn is open, below roll 3,
 * and its dice hold the keep. */
export function keepFits(g, keep) {
  const last = g.turns.at(-1);
  if (!Array.isArray(keep) || !last || last.category !== null || keep.length >= N_DICE) return false;
  if (firstRollOf(g, g.turns.length - 1) + last.rolls.length - 1 >= MAX_ROLLS) return false;
  return keep.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) && contains(last.rolls.at(-1), keep);
}
