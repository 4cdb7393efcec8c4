// The games kept on the device (saved.js) as the page uses them: on start, copies of one game are
// merged, the page continues the game kept (a game is kept once: a reload, Back / Forward, a
// link opened again or in a second tab write the same record), a link opened in a new tab takes
// back its keep and dice entered mid-turn, and the site opened without a link offers to resume
// the game in progress; the list of kept games follows every change and other tabs. The first game
// kept in a visit asks the browser to keep the site's storage for good (navigator.storage.persist,
// once a visit: a browser may grant it later, e.g. once the page is installed), and the list says
// whether it is; Export writes every kept game into one file, Import merges one (exported.js).

import { $ } from "./dom.js";
import { exportFile, MAX_EXPORT_BYTES, mergeGames, readExport } from "./exported.js";
import { sameGame } from "./formats.js";
import { deviceStorage, isGameId, listRecords, mergeCopies, newGameId, removeRecord, replaceRecords } from "./saved.js";
import { store } from "./store.js";
import { quote, t } from "./texts.js";
import { bindTransfer, renderGames, renderResume } from "./view-games.js";
import { showNote } from "./view-note.js";

let handlers = null;
let offer = null;
let saidNotKept = false;
/** Whether the browser keeps the storage for good: null until known. */
let persisted = null;
let askedPersist = false;
let loadedAt = 0;
/** What the last import said: {key, args, refused}, or null. */
let imported = null;

function kept() {
  const storage = deviceStorage();
  return storage ? listRecords(storage) : { games: [], skipped: 0, error: "blocked" };
}

/** Before the URL is read: copies of one game kept are merged; the page continues the game kept
 * under its history entry's id (a reload, a restored tab) or the kept game of the same record (a
 * link opened again, in another tab); a link whose game is kept exactly gets its keep and entry
 * back (they are not in the URL); without a link, the game in progress is offered. */
export function startGames(given) {
  handlers = given;
  loadedAt = Date.now();
  bindTransfer({ exportGames, importFile });
  checkPersisted();
  const storage = deviceStorage();
  if (storage) mergeCopies(storage);
  const { games, skipped, error } = kept();
  const query = location.search.slice(1);
  if (query) adoptGameId(query, history.state?.id);
  if (query && history.state === null) {
    const same = games.find((g) => g.id === store.gameId && g.query === query);
    if (same) history.replaceState({ id: same.id, keep: same.keep, entry: same.entry }, "", location.href);
  }
  offer = !query && games.length && !games[0].over ? games[0] : null;
  if (error) sayNotKept();
  else if (skipped) showNote(t("skippedGames", skipped));
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith("yacht.game.")) refreshGames();
  });
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
  const { games } = kept();
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

/** After every change: the list, the offer (gone once the page shows something), a failure. */
export function refreshGames() {
  if (!handlers) return;
  if (store.keepFailed) sayNotKept();
  const { games, skipped, error } = kept();
  const note = error ? t("notKept") : skipped ? t("skippedGames", skipped) : "";
  if (games.some((g) => g.updated >= loadedAt)) askPersist();
  renderGames(games, note, listHandlers, store.language, { persisted, message: importMessage() });
  renderResume(offer, {
    resume: (record) => {
      offer = null;
      handlers.open(record);
      $("#advice-heading").focus({ preventScroll: true });
    },
    dismiss: () => {
      offer = null;
      renderResume(null);
      $("#keypad button")?.focus({ preventScroll: true }); // the focus stays in the turn
    },
  });
}

/** The offer goes once anything else is shown. */
export function dropOffer() {
  offer = null;
  renderResume(null);
}

function sayNotKept() {
  if (saidNotKept) return;
  saidNotKept = true;
  showNote(t("notKept"));
}

/** Whether the storage is kept for good, as the browser says now (the list says it). */
async function checkPersisted() {
  try {
    persisted = (await navigator.storage?.persisted?.()) ?? false;
  } catch {
    persisted = false;
  }
  refreshGames();
}

/** Asks the browser once a visit, when a game is kept in it, to keep the storage for good. */
async function askPersist() {
  if (askedPersist) return;
  askedPersist = true;
  try {
    if (!(await navigator.storage?.persisted?.())) persisted = (await navigator.storage?.persist?.()) ?? false;
    else persisted = true;
  } catch {
    persisted = false;
  }
  refreshGames();
}

/** Every kept game in one file, downloaded as yacht-games-YYYY-MM-DD.json. */
function exportGames() {
  const { name, text } = exportFile(kept().games, new Date());
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Merges an exported file into the kept games, or refuses it whole (nothing changed). */
async function importFile(file) {
  imported = await importResult(file);
  if (!imported.refused) askPersist();
  refreshGames();
}

async function importResult(file) {
  const refused = (error) => ({ key: error.key, args: error.args, refused: true });
  if (file.size > MAX_EXPORT_BYTES) return refused({ key: "importTooLarge", args: [] });
  let text;
  try {
    text = await file.text();
  } catch {
    return refused({ key: "importUnread", args: [] });
  }
  const read = readExport(text);
  if (read.error) return refused(read.error);
  const storage = deviceStorage();
  const here = kept();
  if (!storage || here.error) return refused({ key: "importStorage", args: [] });
  const merged = mergeGames(here.games, read.games);
  if (merged.error) return refused(merged.error);
  if (replaceRecords(storage, merged.save, merged.remove)) return refused({ key: "importStorage", args: [] });
  return { key: "imported", args: [merged.added, merged.updated], refused: false };
}

/** The last import's words in the language shown; the file's own text quoted. */
function importMessage() {
  if (!imported) return null;
  const args = imported.args.map((a) => (typeof a === "string" ? quote(a) : a));
  const text = t(imported.key, ...args);
  return { text: imported.refused ? t("importRefused", text) : text, refused: imported.refused };
}

const listHandlers = {
  open: (record) => {
    dropOffer();
    handlers.open(record);
    $("#turn-heading")?.scrollIntoView?.({ block: "start" });
    $("#advice-heading").focus({ preventScroll: true });
  },
  share: (record) => handlers.share(record),
  remove: (record) => {
    const storage = deviceStorage();
    if (storage) removeRecord(storage, record.id);
    refreshGames();
  },
};
