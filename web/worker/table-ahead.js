// Fetching ahead: after a goal's answer, while the players think, the chunks that the next
// decisions can read (yacht.api.chunks_ahead_query) are fetched (the bytes only, kept by
// table-source.js until an answer reads them), so that the next decision waits on none.

import { fetchBytes } from "./worker-fetch.js";
import { fileKey } from "./table-source.js";

/** How many chunks are fetched ahead at once, and how many fetched ahead are kept (about 3.5 kB
 * each) until an answer reads them. */
const AHEAD_AT_ONCE = 6;
const AHEAD_MOST = 1500;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fetcher ahead of one worker: `python` resolves to the package's handles, `source` is
 * table-source.js's, `skip(key)` says whether a file needs no fetching ahead (loaded, lacking or
 * being loaded), `busy()` whether answers are fetching files of their own now (fetching ahead
 * waits meanwhile), `packs` worker-pack.js's (a pack that holds the chunks needs none ahead). */
export function fetcherAhead(python, source, skip, busy, packs) {
  /** What is still to fetch ahead ([key, url], soonest first); whether that is under way. */
  const todo = [];
  let running = false;
  /** Whether answers are followed by fetching ahead (the benchmark turns it off to compare). */
  let on = true;

  /** Fetch ahead the chunks of `variant` that the next decisions can read (`wanted`: [quantity,
   * mask, file name], soonest first) but those `skip` names, fetched ahead already or in a kept
   * part of the offline pack; a later call's list replaces what this one has not started;
   * AHEAD_AT_ONCE at a time, at low priority, none started while an answer fetches files of its
   * own; at most AHEAD_MOST kept. */
  async function fetchAhead(variant, wanted) {
    const found = [];
    for (const [kind, mask, name] of wanted) {
      const key = fileKey(kind, variant, mask);
      if (!skip(key) && !source.hasAhead(key)) found.push([key, await source.urlOf(kind, variant, mask, name)]);
    }
    const [first] = wanted;
    if (found.length && first && (await packs?.bytesOf(first[0], variant, first[1]))) return; // the pack has them
    todo.splice(0, todo.length, ...found);
    if (running) return;
    running = true;
    const next = async () => {
      for (let item = todo.shift(); item; item = todo.shift()) {
        while (busy()) await delay(50);
        const [key, url] = item;
        const bytes = fetchBytes(url, "table", { priority: "low" });
        bytes.catch(() => {}); // a chunk that could not be fetched ahead is fetched when read
        source.keepAhead(key, bytes, AHEAD_MOST);
        await bytes.catch(() => {});
      }
    };
    try {
      await Promise.all(Array.from({ length: AHEAD_AT_ONCE }, next));
    } finally {
      running = false;
    }
  }

  /** After a goal's answer, once the worker is idle: the chunks the next decisions can read
   * (yacht.api.chunks_ahead_query of the position, or of the game record: `game`) fetched ahead. */
  async function fetchAheadOf(query, game) {
    if (!on || !navigator.onLine) return; // offline: nothing to fetch ahead from
    await delay(0);
    const py = await python;
    let found;
    try {
      const result = py.api.chunks_ahead_query(query, game);
      found = result.toJs({ dict_converter: Object.fromEntries });
      result.destroy();
    } catch {
      return; // a query an answer refused: nothing ahead
    }
    await fetchAhead(found.variant, found.chunks);
  }

  return { fetchAheadOf, setLookAhead: (value) => (on = value) };
}
