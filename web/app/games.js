// The games kept on the device (saved.js) as the page uses them: on start, a link opened in a new
// tab takes back its keep and dice entered mid-turn, and the site opened without a link offers
// to resume the game in progress; the list of kept games follows every change and other tabs.

import { $ } from "./dom.js";
import { deviceStorage, listRecords, newGameId, removeRecord } from "./saved.js";
import { store } from "./store.js";
import { t } from "./texts.js";
import { renderGames, renderResume } from "./view-games.js";
import { showNote } from "./view-note.js";

let handlers = null;
let offer = null;
let saidNotKept = false;

function kept() {
  const storage = deviceStorage();
  return storage ? listRecords(storage) : { games: [], skipped: 0, error: "blocked" };
}

/** Before the URL is read: a link whose game is kept gets its keep and entry back (they are not
 * in the URL), and continues that record; without a link, the game in progress is offered. */
export function startGames(given) {
  handlers = given;
  const { games, skipped, error } = kept();
  const query = location.search.slice(1);
  if (query && history.state === null) {
    const same = games.find((g) => g.query === query);
    if (same) {
      store.gameId = same.id;
      history.replaceState({ keep: same.keep, entry: same.entry }, "", location.href);
    }
  }
  offer = !query && games.length && !games[0].over ? games[0] : null;
  if (error) sayNotKept();
  else if (skipped) showNote(t("skippedGames", skipped));
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith("yacht.game.")) refreshGames();
  });
}

/** Which kept record the game shown after Back or Forward continues: the one kept with exactly
 * its query; else the record kept under the current id when it is the same game (one query
 * extends the other); else the newest kept record of the same game; else a new one, so that
 * going back to another game and changing it never writes over the game left. */
export function adoptGameId(query) {
  const { games } = kept();
  const same = games.find((g) => g.query === query);
  if (same) return (store.gameId = same.id);
  const mine = games.find((g) => g.id === store.gameId);
  if (mine && sameGame(mine.query, query)) return store.gameId;
  // Another step of a game kept (Back past another page to an earlier step of it): that game.
  const step = games.find((g) => sameGame(g.query, query));
  store.gameId = step ? step.id : mine ? newGameId() : store.gameId;
  return store.gameId;
}

/** Whether two game queries are steps of one game: the same start (every parameter but the
 * records h= and oh=), and each record the beginning of the other's. */
export function sameGame(a, b) {
  const params = (query) =>
    new Map(query.split("&").map((part) => [part.split("=")[0], part.slice(part.indexOf("=") + 1)]));
  const [x, y] = [params(a), params(b)];
  const keys = new Set([...x.keys(), ...y.keys()]);
  for (const key of keys) {
    const [u, v] = [x.get(key) ?? "", y.get(key) ?? ""];
    const record = key === "h" || key === "oh";
    if (record ? !(u.startsWith(v) || v.startsWith(u)) : u !== v) return false;
  }
  return true;
}

/** After every change: the list, the offer (gone once the page shows something), a failure. */
export function refreshGames() {
  if (!handlers) return;
  if (store.keepFailed) sayNotKept();
  const { games, skipped, error } = kept();
  const note = error ? t("notKept") : skipped ? t("skippedGames", skipped) : "";
  renderGames(games, note, listHandlers, store.language);
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
