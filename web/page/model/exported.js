// The kept games in one file, to save elsewhere or move to another device (requests/device.js: Export and
// Import). Pure: the file's text in and out, the games kept passed in; what is wrong comes back as
// a value (a text key and its arguments), never thrown.
//
// Format (docs/formats.md, "Games exported to a file"): one JSON object,
//   {format: "yacht-games", version: 1, exported: ISO 8601 time, games: [record, …]}
// each record as saved.js keeps it (version RECORD_VERSION, parseRecord: the practice games'
// seeds and mean losses, the practice history, included), newest first. A file is read whole or
// not at all: not JSON (a truncated file), another format (another site's file), another version,
// no list of games, a record that does not parse, two records under one id, or more games than the
// device keeps: refused, with what is wrong.
//
// Import merges by game identity (saved.js: a game is kept once): a record under an id kept here
// is the same game: the longer record wins (of the same query, the later one); one id on two games
// that went apart (played on from one start on two devices) keeps both, the file's under a new id.
// Then copies of one game under two ids go as on load (saved.js copiesOf: the longest stays, of
// equal queries the one kept here). Importing a file twice changes nothing.

import { isStepOf } from "./formats.js";
import { copiesOf, MAX_GAMES, newGameId, parseRecord } from "./saved.js";

export const EXPORT_FORMAT = "yacht-games";
export const EXPORT_VERSION = 1;
/** The largest file read (100 games of the longest query fit well within it). */
export const MAX_EXPORT_BYTES = 2_000_000;

/** The file of `games` (as listRecords gives them) written at `now` (a Date): its name, with the
 * device's date, and its text. */
export function exportFile(games, now) {
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, "0"));
  const file = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported: now.toISOString(), games };
  return { name: `yacht-games-${day.join("-")}.json`, text: `${JSON.stringify(file, null, 1)}\n` };
}

/** Why a file is refused: a text key (texts-games.js) and its arguments; a string argument is the
 * file's own text, for the page to quote. */
const refuse = (key, ...args) => ({ games: null, error: { key, args } });
const outside = (value) => (["number", "string"].includes(typeof value) ? value : JSON.stringify(value));

/** The games of an exported file's text: {games, error: null}, or {games: null, error: {key, args}}
 * (texts-games.js) when it is refused. */
export function readExport(text) {
  if (text.length > MAX_EXPORT_BYTES) return refuse("importTooLarge");
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    return refuse("importNotJson");
  }
  if (file === null || typeof file !== "object" || Array.isArray(file) || !Object.hasOwn(file, "format")) {
    return refuse("importNoFormat");
  }
  const { format, version } = file;
  if (format !== EXPORT_FORMAT) return refuse("importOtherFormat", outside(format), EXPORT_FORMAT);
  if (version === undefined) return refuse("importNoVersion");
  if (version !== EXPORT_VERSION) return refuse("importOtherVersion", outside(version), EXPORT_VERSION);
  if (!Array.isArray(file.games)) return refuse("importNoGames");
  const games = [];
  const ids = new Set();
  for (const [i, raw] of file.games.entries()) {
    const record = parseRecord(JSON.stringify(raw));
    if (!record) return refuse("importBadGame", i + 1);
    if (ids.has(record.id)) return refuse("importSameId", i + 1);
    ids.add(record.id);
    games.push(record);
  }
  if (games.length > MAX_GAMES) return refuse("importTooMany", games.length, MAX_GAMES);
  return { games, error: null };
}

/** Whether two records say the same (their version aside). */
const sameRecord = (a, b) => JSON.stringify({ ...a, v: 0 }) === JSON.stringify({ ...b, v: 0 });

/** The games kept after importing `imported` into `kept` (both as listRecords / readExport give
 * them): {save: records to write, remove: ids to delete, added, updated (how many games the file
 * brought or lengthened), error: null}, or {error} when the device would hold more than it keeps
 * (nothing then changes). */
export function mergeGames(kept, imported, newId = newGameId) {
  const mine = new Map(kept.map((r) => [r.id, r]));
  const ours = new Map(mine);
  const theirs = [];
  for (const r of imported) {
    const same = ours.get(r.id);
    if (!same) theirs.push(r);
    else if (same.query === r.query ? r.updated > same.updated : isStepOf(same.query, r.query)) ours.set(r.id, r);
    else if (!isStepOf(r.query, same.query)) theirs.push({ ...r, id: newId() });
  }
  // Kept first: of copies alike (equal queries, equal dates), the one kept here stays.
  const all = [...ours.values(), ...theirs].sort((a, b) => b.updated - a.updated);
  const copies = new Set(copiesOf(all));
  const games = all.filter((r) => !copies.has(r));
  if (games.length > MAX_GAMES) return { error: { key: "importTooMany", args: [games.length, MAX_GAMES] } };
  const save = games.filter((r) => !mine.has(r.id) || !sameRecord(mine.get(r.id), r));
  const remove = kept.filter((r) => !games.some((g) => g.id === r.id)).map((r) => r.id);
  const gone = remove.map((id) => mine.get(id));
  const longer = (r) => mine.has(r.id) || gone.some((g) => isStepOf(g.query, r.query));
  const updated = save.filter(longer).length;
  return { save, remove, added: save.length - updated, updated, error: null };
}
