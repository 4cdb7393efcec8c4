// Where a table file's bytes come from, in one chain: the bytes fetched ahead (table-ahead.js
// puts them here), then the offline pack (worker-pack.js), then the network (worker-fetch.js).
// A file's URL is built here only, from build.json's entry of its kind (each URL carries the
// file's content hash); file names come from Python (yacht.loader.Missing.names,
// yacht.api.chunks_ahead_query). Bytes that Python refused as damaged are evicted from wherever
// they were kept (evict): the next read fetches them again past every cache.

import { fetchBytes } from "./worker-fetch.js";
import { here, LoadError } from "./worker-load.js";

/** The key of one file: "kind/variant/part". */
export const fileKey = (kind, variant, part) => `${kind}/${variant}/${part}`;

/** The source of one worker's table files; `build` resolves to build.json, `packs` is
 * worker-pack.js's offlinePacks (or null). */
export function tableSource(build, packs) {
  /** key -> Promise of bytes fetched ahead, until read (taken once). */
  const early = new Map();
  /** key -> where the bytes last read came from: "ahead", "pack" or "network". */
  const origins = new Map();
  /** The keys of files to fetch past every cache at their next read (their bytes were refused). */
  const refused = new Set();

  /** build.json's description of `kind` and its entry for `variant`, or a LoadError naming what it lacks. */
  async function entryOf(kind, variant, part) {
    const b = await build;
    const k = b.kinds?.[kind];
    if (!k) throw new LoadError("table", `build.json lists no table kind ${kind}`);
    const e = b[k.field]?.[variant];
    if (!e) throw new LoadError("table", `build.json lists no ${kind} files for ${variant}`);
    if (k.parts.length && !Object.hasOwn(e, part))
      throw new LoadError("table", `build.json lists no ${kind} ${part} file for ${variant}`);
    return { k, e };
  }

  /** The URL of file `part` of `kind` of `variant` (`name`: a chunk's file name in its folder). */
  async function urlOf(kind, variant, part, name) {
    const { k, e } = await entryOf(kind, variant, part);
    return here(k.chunked ? `${e.url}${name}?h=${e.hash}` : k.parts.length ? e[part].url : e.url);
  }

  /** Whether `kind` is fetched at start (the rules' table: never read from a pack). */
  const atStart = async (kind) => (await build).kinds?.[kind]?.fetch === "start";

  /** The bytes of file `part` of `kind` of `variant` (`name`: as for urlOf): fetched ahead, else
   * from the offline pack, else (unless `network` is false: a LoadError then) from the network,
   * at `priority`. */
  async function bytesOf(kind, variant, part, name, { network = true, priority } = {}) {
    const key = fileKey(kind, variant, part);
    const fetched = early.get(key);
    early.delete(key);
    const ahead = fetched && (await fetched.catch(() => null));
    if (ahead) {
      origins.set(key, "ahead");
      return ahead;
    }
    const packed = (await atStart(kind)) ? null : await packs?.bytesOf(kind, variant, part);
    if (packed) {
      origins.set(key, "pack");
      return packed;
    }
    const url = await urlOf(kind, variant, part, name);
    if (!network) throw new LoadError("table", `${name || kind}: not fetched now (fetched again by itself)`);
    const bytes = await fetchBytes(url, "table", { priority, fresh: refused.has(key) });
    refused.delete(key);
    origins.set(key, "network");
    return bytes;
  }

  /** Python refused the bytes of this file as damaged: they are dropped wherever they were kept
   * (the pack's part that held them, or every Cache Storage cache: the service worker's too), so
   * that its next read fetches it again past every cache. */
  async function evict(kind, variant, part, name) {
    const key = fileKey(kind, variant, part);
    refused.add(key);
    if (origins.get(key) === "pack") return packs?.evict(kind, variant, part);
    if (typeof caches === "undefined") return;
    const url = await urlOf(kind, variant, part, name);
    for (const cache of await caches.keys()) await (await caches.open(cache)).delete(url);
  }

  /** Keep bytes fetched ahead (`bytes`: a Promise) for the next read of the file `key`; at most `most` kept. */
  function keepAhead(key, bytes, most) {
    early.set(key, bytes);
    while (early.size > most) early.delete(early.keys().next().value);
  }

  const hasAhead = (key) => early.has(key);

  return { bytesOf, urlOf, evict, keepAhead, hasAhead };
}
