// Games kept on the device, so that a game in progress is never lost (a closed tab, a relaunch,
// the home-screen icon opening the site at /). Pure: the storage (window.localStorage, or any
// object with its methods) is an argument; errors come back as values, never thrown.
//
// Format: one key per game, "yacht.game.<id>" (id: base-36 time and random digits), its value a
// JSON object, version RECORD_VERSION:
//   {v: 1, id, updated: ms since 1970, query: the game's (or position's) canonical query,
//    keep: dice kept for a reroll whose dice are not entered yet, or null,
//    entry: the new dice entered so far ([1–6 …]), turn: 1–12, score: the sheet's total,
//    over: the game is over, opponent: their total or null,
//    practice (absent in older records): null, or a practice game's {seed: its p= value,
//    meanLoss: the review's mean loss per decision once reviewed, else null},
//    outcome (absent in older records): null, or once both sheets are full "win", "loss" or
//    "draw" (score against opponent)}
// A record that does not parse, or of another version, is skipped (and counted), never used.
//
// A game is kept once. Its identity is its id, which the page keeps in the history entry's state
// (history.state.id: a reload, Back / Forward or a restored tab continue the record under it),
// and its record: two queries are one game when one is a step of the other (formats.js
// isStepOf, as yacht.play.same_game decides: the same start, and the turns of one the first
// turns of the other, its last possibly cut short). A link opened without an id continues the
// kept record of the same game (not from a game's bare start, which every game of that start
// shares: state/location.js adoptGameId); the same game in two tabs is one record: the later write wins,
// whole. Copies of one game found on the device (kept before this rule) are merged on load
// (mergeCopies): a record that is a step of another goes (a stale copy: the longest record of
// the game stays), except a practice game's written after the longer one (its seed played
// again: the same dice, not yet apart); two games that share a start and then differ are two
// games, both kept. The same rule merges a file of exported games (exported.js) into those kept.

import { isStepOf } from "../model/formats.js";

export const RECORD_VERSION = 1;
export const KEY_PREFIX = "yacht.game.";
/** Games kept at most (the oldest go first); the list shows them all, newest first. */
export const MAX_GAMES = 100;

export const newGameId = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 8);

/** Whether `id` can name a record (a history entry's state may hold anything). */
export const isGameId = (id) => typeof id === "string" && /^[0-9a-z]{1,40}$/.test(id);

const OUTCOMES = ["win", "loss", "draw"];

const isDie = (d) => Number.isInteger(d) && d >= 1 && d <= 6;

/** A record from stored text, or null when it is damaged or of another version. */
export function parseRecord(text) {
  let r;
  try {
    r = JSON.parse(text);
  } catch {
    return null;
  }
  if (r === null || typeof r !== "object" || r.v !== RECORD_VERSION) return null;
  const ok =
    isGameId(r.id) &&
    Number.isFinite(r.updated) &&
    typeof r.query === "string" &&
    r.query.length <= 4000 &&
    (r.keep === null || (Array.isArray(r.keep) && r.keep.length < 5 && r.keep.every(isDie))) &&
    Array.isArray(r.entry) &&
    r.entry.length < 5 &&
    r.entry.every(isDie) &&
    Number.isInteger(r.turn) &&
    Number.isInteger(r.score) &&
    typeof r.over === "boolean" &&
    (r.opponent === null || Number.isInteger(r.opponent)) &&
    practiceOk(r.practice) &&
    (r.outcome === undefined || r.outcome === null || (OUTCOMES.includes(r.outcome) && r.opponent !== null));
  return ok ? { ...r, practice: r.practice ?? null, outcome: r.outcome ?? null } : null;
}

const practiceOk = (p) =>
  p === undefined ||
  p === null ||
  (typeof p === "object" &&
    typeof p.seed === "string" &&
    /^[0-9a-z]{1,6}$/.test(p.seed) &&
    (p.meanLoss === null || (Number.isFinite(p.meanLoss) && p.meanLoss >= 0)));

/** The record kept under `id`, or null (none, damaged, or the storage cannot be read). */
export function readRecord(storage, id) {
  try {
    return parseRecord(storage.getItem(KEY_PREFIX + id));
  } catch {
    return null;
  }
}

/** Why storage failed: "blocked" (no access) or "full" (quota). */
function failure(error) {
  return error?.name === "QuotaExceededError" || error?.code === 22 ? "full" : "blocked";
}

/** Save `record` (its id names the key); null, or "blocked" / "full". Over MAX_GAMES, the oldest
 * games are dropped. */
export function saveRecord(storage, record) {
  try {
    storage.setItem(KEY_PREFIX + record.id, JSON.stringify({ ...record, v: RECORD_VERSION }));
  } catch (error) {
    return failure(error);
  }
  const { games } = listRecords(storage);
  for (const old of games.slice(MAX_GAMES)) removeRecord(storage, old.id);
  return null;
}

/** The games kept, newest first, and how many records were skipped as damaged; `error` when the
 * storage cannot be read. */
export function listRecords(storage) {
  const games = [];
  let skipped = 0;
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key?.startsWith(KEY_PREFIX)) continue;
      const record = parseRecord(storage.getItem(key));
      if (record && KEY_PREFIX + record.id === key) games.push(record);
      else skipped++;
    }
  } catch (error) {
    return { games: [], skipped: 0, error: failure(error) };
  }
  games.sort((a, b) => b.updated - a.updated);
  return { games, skipped, error: null };
}

/** The records of `games` (newest first, as listRecords gives them) that are copies of another:
 * a record whose query is a step of another's goes (the longest record of a game stays) — of a
 * practice game only if written before the longer one (a later one is the seed played again, the
 * same dice, not yet apart) — and of records with the same query all but the newest. Nothing
 * else: two games that share a start and then differ, and every position but a copy of the
 * same, stay. */
export function copiesOf(games) {
  const stale = (r, s) => !isPractice(r.query) || r.updated <= s.updated;
  return games.filter((r, i) =>
    games.some((s, j) => j !== i && isStepOf(r.query, s.query) && (r.query === s.query ? j < i : stale(r, s))),
  );
}

/** A practice game's query (p=): every game of its seed rolls the same dice. */
const isPractice = (query) => /(?:^|&)p=/.test(query);

/** Removes the copies of a game kept (copiesOf); how many went. */
export function mergeCopies(storage) {
  const { games, error } = listRecords(storage);
  if (error) return 0;
  const copies = copiesOf(games);
  for (const copy of copies) removeRecord(storage, copy.id);
  return copies.length;
}

/** Writes `save` (records) and deletes the records under `remove` (ids), all or nothing: null, or
 * "blocked" / "full" with every key as it was before. */
export function replaceRecords(storage, save, remove) {
  const keys = [...save.map((r) => KEY_PREFIX + r.id), ...remove.map((id) => KEY_PREFIX + id)];
  let before;
  try {
    before = keys.map((key) => [key, storage.getItem(key)]);
    for (const r of save) storage.setItem(KEY_PREFIX + r.id, JSON.stringify({ ...r, v: RECORD_VERSION }));
    for (const id of remove) storage.removeItem(KEY_PREFIX + id);
    return null;
  } catch (error) {
    try {
      for (const [key, value] of before ?? []) {
        if (value === null) storage.removeItem(key);
        else storage.setItem(key, value);
      }
    } catch {
      // the storage refuses even the old values back: nothing more can be done
    }
    return failure(error);
  }
}

export function removeRecord(storage, id) {
  try {
    storage.removeItem(KEY_PREFIX + id);
    return null;
  } catch (error) {
    return failure(error);
  }
}

/** The page's storage, or null when even asking for it throws (blocked). */
export function deviceStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The kept games: {games (newest first), skipped, error}. */
export function keptGames() {
  const storage = deviceStorage();
  return storage ? listRecords(storage) : { games: [], skipped: 0, error: "blocked" };
}
