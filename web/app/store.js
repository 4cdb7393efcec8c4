// The one state store: everything the page shows is derived from `store`; every module reads
// and writes it here, and the views render from it.
//
// The position shown is `store.state` (the names of yacht.core.position.Position). A game played
// along is `store.game` = {sheet, firstRoll, variant, turns, keep}: as yacht.play.game.Game (the start
// sheet, the roll of the first dice, the rules, the turns {rolls, keeps, category}), plus `keep`:
// the dice kept for a reroll whose dice are not entered yet (null when none). `store.entry`: the
// new dice entered so far for that reroll, or for a new turn's first roll. What the URL cannot
// hold (a keep waiting for its dice, dice half entered, the steps to redo) lives in
// history.state, so a reload loses nothing.

import { ascending, keptInOrder, keptMask, N_DICE } from "./dice.js";
import {
  decisionCount,
  firstRollOf,
  formatGame,
  formatQuery,
  isGameQuery,
  keepFits,
  parseGame,
  readQuery,
  turnOrderCounts,
} from "./formats.js";
import { gameResult } from "./result.js";
import { nCategories, pointsOf, sheetTotals } from "./rules.js";
import { formatSeed } from "./practice-dice.js";
import { deviceStorage, newGameId, readRecord, saveRecord } from "./saved.js";

export const store = {
  /** "en" or "ja". */
  language: "en",
  /** rules.json (written by the site build from yacht.core.rules); null until it has loaded. */
  rules: null,
  /** The position shown; in a game, the game's current position (derived by sync()).
   * `opponent` (o=) and `target` (t=): the goal of a position (null: none); in a game, the
   * game's (the opponent's sheet as it stands). */
  state: { sheet: [], dice: [], roll: 0, variant: null, opponent: null, target: null },
  /** With a goal, how the options are ranked: "win" (the chance) or "average" (expected score). */
  aim: "win",
  /** The game played along, or null: a position is entered. */
  game: null,
  /** The dice entered so far for the roll the game waits for. */
  entry: [],
  /** What sync() derived from the game: {phase: "dice"|"choice"|"opponent"|"over", turn, roll,
   * dice, locked, opponent (their sheet now, or null)}; "opponent": their turn is to be entered. */
  view: null,
  /** Steps undone, to redo (snapshots, the last undone last). */
  redoStack: [],
  /** This history entry is a position opened from a review: "Back to game" goes back. */
  backToGame: false,
  /** The picker open over the card, or null: {who: "me" | "opponent", category, opener}. */
  picker: null,
  /** A roll was completed: the focus goes to the verdict's action once it can act. */
  focusVerdict: false,
  /** A new game against a rival who starts: their first score is to be entered (said until
   * either sheet has one). */
  theyStart: false,
  /** The review panel is open. */
  reviewOpen: false,
  /** The worker's messenger (messenger.js). */
  advisor: null,
  /** The advisor has loaded. */
  ready: false,
  /** step -> {state, variant}: what the loading list shows. */
  steps: {},
  /** {step, message}: what failed to load, or null. */
  loadError: null,
  /** Bumped on every change of the input: a reply for an older generation is not shown. */
  generation: 0,
  /** The link's raw query while the page still shows it unchanged (Python checks it). */
  link: null,
  /** What the advice area shows: {query, action, result} or {query, action, error, link}. */
  shown: null,
  /** The final-score histogram of the position shown with a goal: {query, result} or {query, error}. */
  histogram: null,
  /** The coach's explanation (view-coach.js): {query, loading} | {query, result} | {query, error};
   * the panel under the verdict is open (`whyOpen`); the options whose Why? is open (`whyOptions`). */
  explanation: null,
  whyOpen: false,
  whyOptions: { query: null, keys: new Set() },
  /** The coach on decisions made (view-coach-decision.js): the answers by "<record>#<index>"
   * ({record, index, loading, sent} | {record, index, result} | {record, index, error}); the
   * practice record whose last choice's Why? is open (`practiceWhy`, null: closed); the review
   * decisions' Why? open (`reviewWhy`: the record reviewed and "<list>:<index>" keys). */
  decisionWhy: new Map(),
  practiceWhy: null,
  reviewWhy: { record: null, keys: new Set() },
  /** What the review panel shows: {query, result} or {query, error}. */
  reviewShown: null,
  /** The note under the header: {kind: "offline" | "update", registration}, or null. */
  appNote: null,
  /** The id of the record this page keeps on the device (saved.js), and why keeping failed
   * ("blocked" / "full") or null. */
  gameId: newGameId(),
  keepFailed: null,
  /** A practice game (store.game.practice, its seed): the dice marked to keep (by position),
   * when the grading shows ("each" choice or at the "end"), the last choice's grade
   * ({query, count: decisions graded, result} or {query, count, error}) and the simulated
   * opponent's turns ({key: "<variant>|<seed>", turns}, yacht.api.opponent_query's). */
  practiceKeep: [],
  practiceFeedback: "each",
  practiceGrade: null,
  practiceOpponent: null,
};

/** Whether the game shown is a practice game (the advice hidden, the dice the seed's). */
export const practising = () => (store.game?.practice ?? null) !== null;

/** Where the game stands (the sheet, the dice, the phase), from the record and the entry. */
export function gameView() {
  const sheet = [...store.game.sheet];
  let dice = null;
  let roll = 0;
  store.game.turns.forEach((turn, i) => {
    dice = turn.rolls.at(-1);
    roll = firstRollOf(store.game, i) + turn.rolls.length - 1;
    if (turn.category !== null) {
      sheet[turn.category] = pointsOf(dice, turn.category, store.game.variant);
      dice = null;
      roll = 0;
    }
  });
  const filled = sheet.filter((v) => v !== null).length;
  const turn = Math.min(filled + 1, nCategories());
  // The opponent's sheet: their start and the turns recorded. Their i-th turn comes after my
  // i-th: once my last recorded turn is scored, theirs is due before my next (or the game's end).
  const rival = store.game.opponent ?? null;
  const opponent = rival ? [...rival.sheet] : null;
  rival?.turns.forEach((turn) => (opponent[turn.category] = turn.points));
  const finished = store.game.turns.filter((turn) => turn.category !== null).length;
  const theirsDue = rival !== null && !dice && rival.turns.length < finished && opponent.includes(null);
  // Their turn is the turn of their sheet's next category (mine sitting first, the turn I just
  // finished; theirs first, the next): the kept games list says turn 6 during their half of turn 6.
  if (theirsDue) {
    const theirTurn = Math.min(opponent.filter((v) => v !== null).length + 1, nCategories());
    return { phase: "opponent", sheet, dice: [], locked: [], roll: 0, turn: theirTurn, opponent };
  }
  if (filled === nCategories()) return { phase: "over", sheet, dice: [], locked: [], roll: 0, turn, opponent };
  if (dice && store.game.keep) {
    const kept = keptInOrder(dice, store.game.keep);
    const all = [...kept, ...store.entry];
    const locked = all.map((_, i) => i < kept.length);
    return { phase: "dice", sheet, dice: all, locked, roll: roll + 1, turn, opponent };
  }
  if (dice) {
    const locked = keptMask(dice, store.game.turns.at(-1).keeps.at(-1) ?? []);
    return { phase: "choice", sheet, dice: [...dice], locked, roll, turn, opponent };
  }
  const first = store.game.turns.length === 0 ? store.game.firstRoll : 1;
  const locked = store.entry.map(() => false);
  return { phase: "dice", sheet, dice: [...store.entry], locked, roll: first, turn, opponent };
}

/** The last die that can be removed (a new one, not a kept one). */
export function lastRemovable() {
  const locked = store.game ? store.view.locked : [];
  for (let i = store.state.dice.length - 1; i >= 0; i--) if (!locked[i]) return i;
  return -1;
}

/** Whether a score can be written on the sheet now (five dice after a roll, no choice made). */
export function canScore() {
  if (store.game) return store.view.phase === "choice";
  return store.state.dice.length === N_DICE && store.state.roll >= 1;
}

export const canUndo = () => store.game !== null && (store.game.keep !== null || decisionCount(store.game) > 0);

/** The position shown follows the game. */
export function sync() {
  if (!store.game) {
    store.view = null;
    return;
  }
  store.view = gameView();
  Object.assign(store.state, {
    sheet: store.view.sheet,
    dice: store.view.dice,
    roll: store.view.roll,
    variant: store.game.variant,
    opponent: store.view.opponent,
    target: store.game.target ?? null,
  });
}

/** The game that starts from the position shown (five dice after roll 1–3). */
export function startGame() {
  store.game = {
    sheet: [...store.state.sheet],
    firstRoll: store.state.roll,
    variant: store.state.variant,
    turns: [{ rolls: [[...store.state.dice]], keeps: [], category: null }],
    opponent: store.state.opponent ? { sheet: [...store.state.opponent], turns: [] } : null,
    target: store.state.target,
    keep: null,
  };
  store.entry = [];
}

/** Back to entering a position: the game's start with its first dice (or those being entered). */
export function leaveGame() {
  const first = store.game.turns[0]?.rolls[0];
  Object.assign(store.state, {
    sheet: [...store.game.sheet],
    dice: first ? [...first] : [...store.entry],
    roll: store.game.firstRoll,
    variant: store.game.variant,
    opponent: store.game.opponent ? [...store.game.opponent.sheet] : null,
    target: store.game.target ?? null,
  });
  store.game = null;
  store.entry = [];
}

// The URL and history.state ----------------------------------------------------------------------

/** Steps undone, to redo (snapshots, the last undone last). */
/** This history entry is a position opened from a review: "Back to game" goes back. */

/** The query of what is shown. A rival's sheet still being entered (its count of filled
 * categories does not fit the turn order yet) stays out of it: the advice stays that of the
 * position alone until their sheet can be theirs at my turn (view-goal.js says what it needs). */
export function currentQuery() {
  if (store.game) return formatGame(store.game);
  const s = store.state;
  const theirs = s.opponent?.filter((v) => v !== null).length;
  const fits = !s.opponent || turnOrderCounts(s.sheet).includes(theirs);
  return formatQuery(fits ? s : { ...s, opponent: null });
}

/** What the URL cannot hold, kept with the history entry (it survives a reload); `id`: the
 * record the entry's game is kept under (saved.js), so that a reload continues it. */
export function historyState() {
  return {
    id: store.gameId,
    keep: store.game?.keep ?? null,
    entry: store.game ? [...store.entry] : [],
    redo: store.redoStack,
    back: store.backToGame,
    review: store.reviewOpen,
  };
}

export function writeURL(push = false, { opened = false } = {}) {
  const url = `${location.pathname}?${currentQuery()}`;
  if (push) history.pushState(historyState(), "", url);
  else history.replaceState(historyState(), "", url);
  keepOnDevice({ opened });
}

/** The game (or the position) shown, kept on the device after every change (saved.js) under
 * store.gameId (games.js adopts the id of a game come back to); an empty sheet with no dice is
 * not worth keeping. */
export function keepOnDevice({ opened = false } = {}) {
  // A decision's position opened from the review is a view into the game, not a game to keep.
  if (!store.rules || store.backToGame) return;
  const s = store.state;
  const empty = !store.game && s.dice.length === 0 && s.sheet.every((v) => v === null);
  if (empty) return;
  const storage = deviceStorage();
  const filled = s.sheet.filter((v) => v !== null).length;
  const query = currentQuery();
  const record = {
    id: store.gameId,
    updated: Date.now(),
    query,
    keep: store.game?.keep ?? null,
    entry: store.game ? [...store.entry] : [],
    turn: store.view?.turn ?? Math.min(filled + 1, nCategories()),
    score: sheetTotals(s.sheet).total,
    over: filled === nCategories(),
    opponent: s.opponent ? sheetTotals(s.opponent).total : null,
    practice: practising() ? practiceRecord(storage, query) : null,
    outcome: gameResult(s.sheet, s.opponent)?.outcome ?? null,
  };
  const before = storage ? readRecord(storage, store.gameId) : null;
  // Nothing new (a kept game opened again): the record and its date stay as they are. A link or
  // Back / Forward to an earlier step of the game kept: the game stays whole (the steps after it
  // are kept until the player plays on from here).
  if (before && unchanged(before, record)) return;
  if (opened && before && before.query.length > query.length && before.query !== query) return;
  store.keepFailed = storage ? saveRecord(storage, record) : "blocked";
}

/** Whether a kept record says what `record` says (all but its date). */
const unchanged = (before, record) =>
  JSON.stringify({ ...before, updated: 0, v: 0 }) === JSON.stringify({ ...record, updated: 0, v: 0 });

/** What the games list keeps of a practice game: its seed and, once it is reviewed, the mean loss
 * per decision (from the review shown, else as kept before for the same record). */
function practiceRecord(storage, query) {
  const reviewed = store.reviewShown?.query === query ? store.reviewShown.result : null;
  const before = storage ? readRecord(storage, store.gameId) : null;
  const kept = before?.query === query ? (before.practice?.meanLoss ?? null) : null;
  return { seed: formatSeed(store.game.practice), meanLoss: reviewed ? reviewed.mean_loss : kept };
}

export function snapshot() {
  return structuredClone({ game: store.game, entry: store.entry, state: store.state });
}

export function restore(saved) {
  store.game = saved.game;
  store.entry = saved.entry;
  Object.assign(store.state, saved.state);
}

/** The page's input from the URL and history.state (at start, and on Back / Forward). */
export function readLocation() {
  const query = location.search.slice(1);
  const saved = history.state ?? {};
  store.link = query.length ? query : null;
  store.redoStack = Array.isArray(saved.redo) ? saved.redo : [];
  store.backToGame = saved.back === true;
  store.game = isGameQuery(query) ? parseGame(query) : null;
  store.entry = [];
  if (store.game) {
    Object.assign(store.state, { opponent: null, target: null });
    if (saved.keep && keepFits(store.game, saved.keep)) store.game.keep = ascending(saved.keep);
    restoreEntry(saved.entry);
  } else {
    Object.assign(store.state, readQuery(query));
  }
  store.reviewOpen = saved.review === true && store.game !== null;
  store.picker = null;
  store.practiceKeep = [];
  sync();
}

/** Dice entered before a reload, if they still fit what the game waits for. */
export function restoreEntry(saved) {
  if (!Array.isArray(saved) || !saved.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) return;
  store.entry = [...saved];
  const v = gameView();
  if (v.phase !== "dice" || v.dice.length >= N_DICE) store.entry = [];
}
