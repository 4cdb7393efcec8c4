// The worker's answers to the advice, into the store. A link's answer is what Python read of it:
// the page shows exactly that, under its canonical query (and continues the game kept under
// another spelling of it); a link whose game is not legal keeps what can be read of its start.

import { keepFits, parseGame, readQuery } from "../model/formats.js";
import { adoptGameId, restoreEntry } from "../state/location.js";
import { store, update } from "../state/store.js";

/** The advice's answer to `request` ({query, action, link}). */
export function adviceAnswered(request, result) {
  if (request.link && request.action === "game" && !parseGame(result.query)) {
    return adviceFailed(request, { kind: "internal", message: `cannot follow ${result.query}` });
  }
  update(
    "advice",
    (s) => {
      if (request.link) {
        if (request.action === "game") {
          const keep = s.game?.keep;
          const entered = s.game ? s.entry : [];
          s.game = parseGame(result.query);
          if (keep && keepFits(s.game, keep)) s.game.keep = keep;
          restoreEntry(entered);
        } else {
          s.game = null;
          Object.assign(s.state, readQuery(result.query));
        }
        s.link = null;
        if (result.query !== request.query) adoptGameId(result.query); // another spelling of a game kept
      }
      s.shown = { query: result.query, action: request.action, result };
    },
    { link: request.link },
  );
}

/** Files that answers went without (an estimate of the chance, the coach's files) have arrived
 * (the worker's news): what was answered without them is asked for again. */
export function tablesRecovered() {
  update("recovered", (s) => {
    if (s.explanation?.error || s.explanation?.result?.estimate) s.explanation = null;
    if (s.histogram?.error) s.histogram = null;
  });
}

/** How an offline pack stands (the worker's news, or its answer to packStatus). */
export const packNews = (news) =>
  update("pack", (s) => {
    const { variant, state, received, total, message, needed } = news;
    s.packs[variant] = { state, received, total, message: message ?? null, needed: needed ?? null };
  });

/** The player asks to download an offline pack or to stop its download (sent by show.js's requests). */
export const wishPack = (variant, wish) => update("packWish", (s) => (s.packWish = { variant, wish }));

/** The browser went online or offline (its events; at start, navigator.onLine). */
export const setOnline = (online) => update("online", (s) => (s.online = online));

/** The advice's failure: said in the advice's place. */
export function adviceFailed(request, error) {
  const dropped = request.link && request.action === "game" && store.game !== null;
  update(
    "adviceError",
    (s) => {
      if (dropped) {
        // Not a legal game: keep what can be read of its start (the sheet, the rules) as a position.
        s.game = null;
        s.entry = [];
        Object.assign(s.state, readQuery(request.query));
      }
      s.shown = { query: request.query, action: request.action, error, link: request.link };
    },
    { dropped },
  );
}
