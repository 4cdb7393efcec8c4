// The device: the games kept on it (saved.js) and the browser's storage, the service worker, the
// settings kept. On start, copies of one game are merged and, without a link, the game in
// progress is offered (store.offer); the first game kept in a visit asks the browser to keep the
// site's storage for good (navigator.storage.persist, once a visit: a browser may grant it later,
// e.g. once the page is installed; store.persisted says whether it is); Export writes every kept
// game into one file, Import merges one (exported.js; store.imported says what it did). What the
// browser answers goes into the store through update().

import { exportFile, MAX_EXPORT_BYTES, mergeGames, readExport } from "../model/exported.js";
import { deviceStorage, keptGames, mergeCopies, removeRecord, replaceRecords } from "../model/saved.js";
import { note } from "../actions/actions.js";
import { store, update } from "../state/store.js";
import { t } from "../texts/texts.js";

export { registerServiceWorker, reloadForUpdate } from "./offline.js";

let saidNotKept = false;
let askedPersist = false;
let loadedAt = 0;

/** Whether the kept games are in use yet (startDevice has run): the list is drawn from then on. */
export const deviceStarted = () => loadedAt > 0;

/** At start, before the URL is read: copies of one game kept are merged; without a link, the game
 * in progress is offered; the browser is asked whether it keeps the storage for good. */
export function startDevice() {
  loadedAt = Date.now();
  const storage = deviceStorage();
  if (storage) mergeCopies(storage);
  const { games, skipped, error } = keptGames();
  const query = location.search.slice(1);
  update("games", (s) => {
    s.offer = !query && games.length && !games[0].over ? games[0] : null;
    if (error) sayNotKept(s);
    else if (skipped) s.note = note(t("skippedGames", skipped));
  });
  checkPersisted();
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith("yacht.game.")) update("games");
  });
}

/** What the list says about keeping: "" or why the games are not kept (said once as a note too);
 * asks the browser to keep the storage once a game is kept in this visit. */
export function keepingNote(games, skipped, error) {
  if (games.some((g) => g.updated >= loadedAt)) askPersist();
  if (store.keepFailed && !saidNotKept) update("note", sayNotKept);
  return error ? t("notKept") : skipped ? t("skippedGames", skipped) : "";
}

function sayNotKept(s) {
  if (saidNotKept) return;
  saidNotKept = true;
  s.note = note(t("notKept"));
}

/** Whether the storage is kept for good, as the browser says now (the list says it). */
async function checkPersisted() {
  let persisted;
  try {
    persisted = (await navigator.storage?.persisted?.()) ?? false;
  } catch {
    persisted = false;
  }
  update("games", (s) => (s.persisted = persisted));
}

/** Asks the browser once a visit, when a game is kept in it, to keep the storage for good. */
async function askPersist() {
  if (askedPersist) return;
  askedPersist = true;
  let persisted;
  try {
    if (!(await navigator.storage?.persisted?.())) persisted = (await navigator.storage?.persist?.()) ?? false;
    else persisted = true;
  } catch {
    persisted = false;
  }
  update("games", (s) => (s.persisted = persisted));
}

/** Remove a kept game; the note that says so offers Undo (restoreGame) while it shows. */
export function removeGame(record) {
  const storage = deviceStorage();
  if (storage) removeRecord(storage, record.id);
  update("games");
  update("note", (s) => (s.note = { ...note(t("gameDeleted")), undo: record }));
}

/** Undo a removal: the record kept again as it was. */
export function restoreGame(record) {
  const storage = deviceStorage();
  if (storage) replaceRecords(storage, [record], []);
  update("games");
  update("note", (s) => (s.note = note(t("gameRestored"))));
}

/** Every kept game in one file, downloaded as yacht-games-YYYY-MM-DD.json. */
export function exportGames() {
  const { name, text } = exportFile(keptGames().games, new Date());
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Merges an exported file into the kept games, or refuses it whole (nothing changed). */
export async function importFile(file) {
  const imported = await importResult(file);
  if (!imported.refused) askPersist();
  update("games", (s) => (s.imported = imported));
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
  const here = keptGames();
  if (!storage || here.error) return refused({ key: "importStorage", args: [] });
  const merged = mergeGames(here.games, read.games);
  if (merged.error) return refused(merged.error);
  if (replaceRecords(storage, merged.save, merged.remove)) return refused({ key: "importStorage", args: [] });
  return { key: "imported", args: [merged.added, merged.updated], refused: false };
}

const FEEDBACK_KEY = "yacht.practiceFeedback";

/** The practice's grading setting kept on the device ("each" or "end"), or null. */
export function savedPracticeFeedback() {
  try {
    const saved = window.localStorage.getItem(FEEDBACK_KEY);
    return saved === "each" || saved === "end" ? saved : null;
  } catch {
    return null; // storage blocked: the default stays
  }
}

export function savePracticeFeedback(value) {
  try {
    window.localStorage.setItem(FEEDBACK_KEY, value);
  } catch {
    // storage blocked: the setting lasts as long as the page
  }
}

/** Share the page's link: the system's share sheet where there is one, else the clipboard; the
 * note says what happened (a link to copy by hand when the clipboard is refused). */
export async function sharePage() {
  const url = location.href;
  update("note", (s) => (s.note = null));
  const game = store.game !== null;
  try {
    if (navigator.share) {
      await navigator.share({ title: document.title, url });
      update("note", (s) => (s.note = note(t("shared"))));
      return;
    }
    await navigator.clipboard.writeText(url);
    update("note", (s) => (s.note = note(t("copied"))));
  } catch (error) {
    if (error?.name === "AbortError") return; // the user closed the share sheet
    update("note", (s) => (s.note = note(t("copyFailed"), url, t(game ? "linkLabelGame" : "linkLabel"))));
  }
}

/** Copy a kept game's link (the note says so, or offers it to copy by hand). */
export async function shareKept(record) {
  const url = new URL(`?${record.query}`, location.href).href;
  try {
    await navigator.clipboard.writeText(url);
    update("note", (s) => (s.note = note(t("copied"))));
  } catch {
    update("note", (s) => (s.note = note(t("copyFailed"), url, t("linkLabelGame"))));
  }
}
