// The one state store: everything the page shows is derived from `store`. Only actions change it,
// through update(what, mutate) (the worker's answers too: requests/ hands them to update); after
// each change, update derives the game's stage (sync) and calls the one place that shows it
// (show.js: the views to draw, the requests to send, the URL and the device's copy to write).
// Views read it and never write it.
//
// The position shown is `store.state` (the names of yacht.core.position.Position). A game played
// along is `store.game` = {sheet, firstRoll, variant, turns, keep}: as yacht.play.game.Game (the start
// sheet, the roll of the first dice, the rules, the turns {rolls, keeps, category}), plus `keep`:
// the dice kept for a reroll whose dice are not entered yet (null when none). `store.entry`: the
// new dice entered so far for that reroll, or for a new turn's first roll. What the URL cannot
// hold (a keep waiting for its dice, dice half entered, the steps to redo) lives in
// history.state, so a reload loses nothing (state/location.js).

import { keptInOrder, keptMask, N_DICE } from "../model/dice.js";
import { decisionCount, firstRollOf, formatGame, formatQuery, turnOrderCounts } from "../model/formats.js";
import { nCategories, pointsOf } from "../model/rules.js";
import { newGameId } from "../model/saved.js";

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
  /** The game's stage, derived from the game by sync(): {phase: "dice"|"choice"|"opponent"|"over",
   * turn, roll, dice, locked, opponent (their sheet now, or null)}; "opponent": their turn is to be
   * entered. null: no game. */
  stage: null,
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
  /** The offline packs (web/worker/worker-pack.js), by variant: {state, received, total,
   * message?} as the worker last told; `packWish`: what the player asked of one ({variant, wish:
   * "download" | "cancel"}, sent by requests/requests.js) or null. */
  packs: {},
  packWish: null,
  /** The browser says it is online (navigator.onLine; its online and offline events). */
  online: true,
  /** The worker has loaded (Python, NumPy, our package and the first table): it answers. */
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
  /** The coach's explanation (views/coach.js): {query, loading} | {query, result} | {query, error};
   * the panel under the verdict is open (`whyOpen`); the options whose Why? is open (`whyOptions`). */
  explanation: null,
  whyOpen: false,
  whyOptions: { query: null, keys: new Set() },
  /** The coach on decisions made (views/coach-decision.js): the answers by "<record>#<index>"
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
  /** The note that answers a tap, in the header's place (views/note.js): {text, link, label}
   * (`link`: a URL to copy by hand, with its label) or null. */
  note: null,
  /** Where the focus goes once the change is shown (show.js), or null: {target, …}. */
  focus: null,
  /** The kept game offered to resume (a record of saved.js), or null; whether the browser keeps
   * the storage for good (null: not known yet); what the last import said ({key, args,
   * refused} or null). */
  offer: null,
  persisted: null,
  imported: null,
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
export function gameStage() {
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

/** The category of the rival's last recorded turn while a mistyped score there can still be
 * corrected by tapping it (nothing of mine recorded after it: my next turn not rolled yet), else null. */
export function correctableTheirTurn() {
  const rival = store.game?.opponent;
  if (!rival?.turns.length || store.stage.phase !== "dice" || store.game.keep) return null;
  const last = store.game.turns.at(-1);
  if (last && last.category === null) return null;
  const finished = store.game.turns.filter((turn) => turn.category !== null).length;
  return rival.turns.length >= finished ? rival.turns.at(-1).category : null;
}

/** The last die that can be removed (a new one, not a kept one). */
export function lastRemovable() {
  const locked = store.game ? store.stage.locked : [];
  for (let i = store.state.dice.length - 1; i >= 0; i--) if (!locked[i]) return i;
  return -1;
}

/** Whether a score can be written on the sheet now (five dice after a roll, no choice made). */
export function canScore() {
  if (store.game) return store.stage.phase === "choice";
  return store.state.dice.length === N_DICE && store.state.roll >= 1;
}

export const canUndo = () => store.game !== null && (store.game.keep !== null || decisionCount(store.game) > 0);

/** The position shown follows the game. */
export function sync() {
  if (!store.game) {
    store.stage = null;
    return;
  }
  store.stage = gameStage();
  Object.assign(store.state, {
    sheet: store.stage.sheet,
    dice: store.stage.dice,
    roll: store.stage.roll,
    variant: store.game.variant,
    opponent: store.stage.opponent,
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

export function snapshot() {
  return structuredClone({ game: store.game, entry: store.entry, state: store.state });
}

export function restore(saved) {
  store.game = saved.game;
  store.entry = saved.entry;
  Object.assign(store.state, saved.state);
}

/** The query of what is shown. A rival's sheet still being entered (its count of filled
 * categories does not fit the turn order yet) stays out of it: the advice stays that of the
 * position alone until their sheet can be theirs at my turn (views/goal.js says what it needs). */
export function currentQuery() {
  if (store.game) return formatGame(store.game);
  const s = store.state;
  const theirs = s.opponent?.filter((v) => v !== null).length;
  const fits = !s.opponent || turnOrderCounts(s.sheet).includes(theirs);
  return formatQuery(fits ? s : { ...s, opponent: null });
}

/** A new game whose rival starts stays so only before anything is entered. */
function theyStillStart() {
  const s = store.state;
  const empty = (sheet) => sheet.every((v) => v === null);
  return !store.game && s.opponent !== null && empty(s.sheet) && empty(s.opponent);
}

let shower = () => {};

/** The one place that shows a change (show.js's show): set once, at start. */
export function onUpdate(show) {
  shower = show;
}

/** Change the store: `mutate(store)`, then the game's stage follows (sync) and show.js shows the
 * change named `what` (its SHOW says what each draws and asks; `options` go with it). The only
 * way the store changes. */
export function update(what, mutate = () => {}, options = {}) {
  mutate(store);
  sync();
  store.theyStart &&= theyStillStart();
  shower(what, options);
}
