// Where the state is kept outside the page: the URL (the position or the game, in the CLI's
// formats), history.state (what the URL cannot hold: a keep waiting for its dice, dice half
// entered, the steps to redo, the record's id) and the device's copy of the game (saved.js).
// readLocation() and restoreEntry() read them into the store (inside an action's update);
// writeURL() and keepOnDevice() write them (show.js, after a change).

import { ascending, N_DICE } from "../model/dice.js";
import { formatSeed } from "../model/practice-dice.js";
import { isGameQuery, keepFits, parseGame, readQuery, sameGame } from "../model/formats.js";
import { gameResult } from "../model/result.js";
import { nCategories, sheetTotals } from "../model/rules.js";
import { deviceStorage, isGameId, keptGames, newGameId, readRecord, saveRecord } from "../model/saved.js";
import { currentQuery, gameStage, practising, store } from "./store.js";

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
    turn: store.stage?.turn ?? Math.min(filled + 1, nCategories()),
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

/** The page's input from the URL and history.state (at start, on Back / Forward; a kept game
 * opened: its query and the state its new entry gets). */
export function readLocation(query = location.search.slice(1), saved = history.state ?? {}) {
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
}

/** Dice entered before a reload, if they still fit what the game waits for. */
export function restoreEntry(saved) {
  if (!Array.isArray(saved) || !saved.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) return;
  store.entry = [...saved];
  const v = gameStage();
  if (v.phase !== "dice" || v.dice.length >= N_DICE) store.entry = [];
}

/** Which kept record the query shown continues (at a load, after Back or Forward, once a link's
 * canonical query is known); `entryId`: the history entry's id, if any.
 * 1. The record kept under that id (else the page's) when it is the same game (formats.js
 *    sameGame); 2. the one kept with exactly this query; 3. the newest kept game of which this
 *    is a step or which is a step of this (a link opened again, in another tab, a reload whose
 *    copy was merged) — never for a game's bare start (no roll recorded yet: every game of that
 *    start begins so, a practice seed's replay too); 4. a new id when the page's record is
 *    another game (going back to another game and changing it never writes over the game
 *    left); else the entry's id (its game, not kept yet), else the page's. */
export function adoptGameId(query, entryId = null) {
  const { games } = keptGames();
  const id = isGameId(entryId) ? entryId : null;
  const mine = games.find((g) => g.id === (id ?? store.gameId));
  const same =
    (mine && sameGame(mine.query, query) ? mine : null) ??
    games.find((g) => g.query === query) ??
    (hasRoll(query) ? games.find((g) => sameGame(g.query, query)) : null);
  store.gameId = same ? same.id : mine ? newGameId() : (id ?? store.gameId);
  return store.gameId;
}

/** Whether a game query records a roll (its h= or oh= is not empty). */
const hasRoll = (query) => /(?:^|&)o?h=[^&]/.test(query);

/** At start: the page continues the game kept under its history entry's id (a reload, a restored
 * tab) or the kept game of the same record (a link opened again, in another tab); a link whose
 * game is kept exactly gets its keep and entry back (they are not in the URL). */
export function adoptLocation() {
  const query = location.search.slice(1);
  if (!query) return;
  adoptGameId(query, history.state?.id);
  if (history.state !== null) return;
  const same = keptGames().games.find((g) => g.id === store.gameId && g.query === query);
  if (same) history.replaceState({ id: same.id, keep: same.keep, entry: same.entry }, "", location.href);
}
