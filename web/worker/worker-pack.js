// The offline packs (tools/site_build/pack.py: the format): per rule variant, every table file
// fetched after the start in a few parts, downloaded at once so that playing to win works with no
// network. The worker keeps a pack's index and parts in a Cache Storage cache of its own named
// after the pack's hash (a new build's pack never mixes with an old one's; the others are deleted),
// so it survives a relaunch; a download interrupted resumes at the first part not kept. Once a
// part is kept, the files in it are read from there instead of the network (bytesOf).
//
// Nothing damaged is kept: each part's SHA-256 (index.json's `sha256`) is checked before it is
// kept and when it is first read after a relaunch; a part that fails is evicted (the pack is
// partial again) and downloaded again once the network allows, never read.
//
// The page is told how a pack stands with {type: "pack", variant, state, received, total}:
// state "none" (nothing kept), "partial" (some parts kept, not downloading), "downloading",
// "ready" (every part kept), "failed" (with `message`), "nospace" (the device's storage lacks
// room for the parts still to download: `needed`, bytes; not downloaded again by itself until it
// has room), "unavailable" (no Cache Storage here).

import { sha256 } from "./worker-check.js";
import { fetchBytes, fetchJSON } from "./worker-fetch.js";
import { here } from "./worker-load.js";

const PREFIX = "yacht-pack-";
const FORMAT = "yacht-pack";
const VERSION = 2;

/** No room for a part: the browser's QuotaExceededError on cache.put, or too little left by
 * navigator.storage.estimate() before a download starts. */
class NoSpace extends Error {
  constructor(needed) {
    super(`${needed} more bytes of storage are needed`);
    this.needed = needed;
  }
}

/** The bytes the device's storage has room for, or Infinity where it does not say. */
async function room() {
  const { quota, usage } = (await navigator.storage?.estimate?.().catch(() => null)) ?? {};
  return quota === undefined || usage === undefined ? Infinity : quota - usage;
}

/** The packs of one worker; `build` resolves to build.json, `tell(news)` posts to the page,
 * `grew(variant)` is called once more of a pack is kept (the files answers went without may be
 * in it now). */
export function offlinePacks(build, tell, grew = () => {}) {
  /** variant -> {index, offsets: Map("kind/part" -> [part, offset, length])}, once read. */
  const indexes = new Map();
  /** variant -> AbortController of the download under way. */
  const downloads = new Map();
  /** "variant/i" -> the kept part's Blob (read from the cache once); the parts whose SHA-256 this
   * worker has checked; the variants with parts evicted as damaged, to download again. */
  const blobs = new Map();
  const verified = new Set();
  const evicted = new Set();
  /** "variant/i" of the parts evicted, fetched again past every cache. */
  const refetch = new Set();

  const available = () => typeof caches !== "undefined";

  async function entry(variant) {
    const b = await build;
    const pack = b.packs?.[variant];
    if (!pack) throw new Error(`build.json lists no offline pack for ${variant}`);
    return pack;
  }

  const cacheName = (variant, pack) => `${PREFIX}${variant}-${pack.hash}`;
  /** The kept pack of `variant` for reading: its match(url) never makes the cache (caches.open
   * would: a reader that raced a refused index's delete left an empty cache of it behind). */
  const kept = (variant, pack) => ({ match: (url) => caches.match(url, { cacheName: cacheName(variant, pack) }) });
  const indexURL = (pack) => here(`${pack.url}index.json?h=${pack.hash}`);
  const partURL = (pack, i) => here(`${pack.url}${i}.part?h=${pack.hash}`);

  /** Delete the packs of other builds (and of variants this build has no pack of). */
  async function forgetOthers() {
    if (!available()) return;
    const b = await build;
    const current = new Set(Object.entries(b.packs ?? {}).map(([variant, pack]) => cacheName(variant, pack)));
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && !current.has(key)) await caches.delete(key);
    }
  }
  const forgotten = forgetOthers().catch(() => {});

  /** The pack's index, from the cache or the network (then kept: the pack's cache is made only
   * here, for an index of this build); refused when of another format or version. */
  async function readIndex(variant, pack, fromNetwork) {
    if (indexes.has(variant)) return indexes.get(variant).index;
    const keptIndex = await kept(variant, pack).match(indexURL(pack));
    if (!keptIndex && !fromNetwork) return null;
    const index = keptIndex ? await keptIndex.json() : await fetchJSON(indexURL(pack), "table");
    const fits = Array.isArray(index.sha256) && index.sha256.length === index.parts?.length;
    if (index.format !== FORMAT || index.version !== VERSION || index.hash !== pack.hash || !fits) {
      await caches.delete(cacheName(variant, pack));
      throw new Error(`${pack.url}index.json: not a ${FORMAT} ${VERSION} index of this build`);
    }
    if (!keptIndex)
      await (await caches.open(cacheName(variant, pack))).put(indexURL(pack), new Response(JSON.stringify(index)));
    const offsets = new Map();
    let part = 0;
    let offset = 0;
    for (const [kind, names, lengths] of index.kinds) {
      names.forEach((name, i) => {
        if (offset >= index.parts[part]) [part, offset] = [part + 1, 0];
        offsets.set(`${kind}/${name}`, [part, offset, lengths[i]]);
        offset += lengths[i];
      });
    }
    indexes.set(variant, { index, offsets });
    return index;
  }

  /** The parts of `variant`'s pack still to download, in bytes (all of it when no index is kept). */
  async function missingBytes(pack, cache, index) {
    if (!index) return pack.bytes;
    const there = await Promise.all(index.parts.map(async (_, i) => Boolean(await cache.match(partURL(pack, i)))));
    return index.parts.reduce((sum, bytes, i) => sum + (there[i] ? 0 : bytes), 0);
  }

  /** How `variant`'s pack stands now: {variant, state, received, total} (bytes); "nospace" with
   * `needed` when the device's storage has no room for the parts still to download. */
  async function status(variant) {
    const pack = await entry(variant);
    const news = { variant, received: 0, total: pack.bytes };
    if (!available()) return { ...news, state: "unavailable" };
    await forgotten;
    const index = await readIndex(variant, pack, false);
    const needed = await missingBytes(pack, kept(variant, pack), index);
    const received = pack.bytes - needed;
    if (downloads.has(variant)) return { ...news, state: "downloading", received };
    if (!needed) return { ...news, state: "ready", received: pack.bytes };
    if (needed > (await room())) return { ...news, state: "nospace", received, needed };
    return { ...news, state: index ? "partial" : "none", received };
  }

  /** Download `variant`'s pack, the parts not kept yet (each checked by its SHA-256 before it is
   * kept), telling the page how far it got; resolves to the last news (ready, failed, nospace, or
   * after a cancel how it stands). */
  async function download(variant) {
    if (downloads.has(variant)) return status(variant);
    const pack = await entry(variant);
    if (!available()) return status(variant);
    const controller = new AbortController();
    downloads.set(variant, controller);
    let received = 0;
    let last = null;
    const news = (state, extra = {}) => {
      last = { type: "pack", variant, state, received, total: pack.bytes, ...extra };
      tell(last);
    };
    try {
      await forgotten;
      const index = await readIndex(variant, pack, true);
      const cache = await caches.open(cacheName(variant, pack)); // made by readIndex, for this build's index
      const needed = await missingBytes(pack, cache, index);
      if (needed > (await room())) throw new NoSpace(needed);
      received = pack.bytes - needed;
      for (let i = 0; i < index.parts.length; i++) {
        if (await cache.match(partURL(pack, i))) continue;
        news("downloading");
        let told = 0;
        const onBytes = (n) => {
          received += n;
          if (performance.now() - told <= 200) return;
          told = performance.now();
          news("downloading");
        };
        const fresh = refetch.has(`${variant}/${i}`); // evicted: past the HTTP cache's copy too
        const bytes = await fetchBytes(partURL(pack, i), "table", { signal: controller.signal, onBytes, fresh });
        if ((await sha256(bytes)) !== index.sha256[i])
          throw new Error(`${pack.url}${i}.part: damaged in transit (its SHA-256 is not the index's), not kept`);
        const response = new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } });
        await cache.put(partURL(pack, i), response).catch((error) => {
          throw error?.name === "QuotaExceededError" ? new NoSpace(pack.bytes - received + bytes.length) : error;
        });
        verified.add(`${variant}/${i}`);
        refetch.delete(`${variant}/${i}`);
        grew(variant);
      }
      downloads.delete(variant);
      received = pack.bytes;
      news("ready");
    } catch (error) {
      downloads.delete(variant);
      const cancelled = controller.signal.aborted;
      const now = await status(variant).catch(() => ({ state: "none", received }));
      received = now.received;
      if (cancelled) news(now.state);
      else if (error instanceof NoSpace) news("nospace", { needed: error.needed });
      else news("failed", { message: String(error?.message ?? error) });
    }
    return last;
  }

  /** Stop `variant`'s download (the parts kept stay: a later download resumes after them). */
  function cancel(variant) {
    downloads.get(variant)?.abort();
  }

  /** Drop part `i` of `variant`'s pack (damaged): the pack is partial again, the page is told, and
   * the part is downloaded again now if the network allows (else when the page is online again:
   * resumeEvicted). */
  async function evictPart(variant, pack, i) {
    blobs.delete(`${variant}/${i}`);
    verified.delete(`${variant}/${i}`);
    refetch.add(`${variant}/${i}`);
    evicted.add(variant);
    if (await caches.has(cacheName(variant, pack)))
      await (await caches.open(cacheName(variant, pack))).delete(partURL(pack, i));
    tell({ type: "pack", ...(await status(variant)) });
    if (navigator.onLine) resumeEvicted();
  }

  /** Download again the parts evicted as damaged (after evictPart), where the network allows. */
  function resumeEvicted() {
    for (const variant of evicted) {
      evicted.delete(variant);
      download(variant).then(
        (last) => last?.state !== "ready" && evicted.add(variant),
        () => evicted.add(variant), // the pack's index could not be read: tried again when online
      );
    }
  }

  /** The kept part `i` of `variant`'s pack, checked by its SHA-256 the first time this worker
   * reads it (a relaunch reads it again); a part that fails is evicted (evictPart), null then. */
  async function partOf(variant, pack, cache, index, i) {
    const key = `${variant}/${i}`;
    if (!blobs.has(key)) {
      const response = await cache.match(partURL(pack, i));
      if (!response) return null;
      blobs.set(key, await response.blob());
    }
    if (!verified.has(key)) {
      const bytes = new Uint8Array(await blobs.get(key).arrayBuffer());
      if ((await sha256(bytes)) !== index.sha256[i]) {
        console.warn(`${pack.url}${i}.part: damaged in storage (its SHA-256 is not the index's); evicted`);
        await evictPart(variant, pack, i);
        return null;
      }
      verified.add(key);
    }
    return blobs.get(key);
  }

  /** The bytes of file `part` of `kind` of `variant` from its pack, or null where no kept part
   * holds it, or the part is damaged (the caller fetches the file from the network). */
  async function bytesOf(kind, variant, part) {
    if (!available()) return null;
    const b = await build;
    const pack = b.packs?.[variant];
    if (!pack) return null;
    try {
      const cache = kept(variant, pack);
      const index = await readIndex(variant, pack, false);
      const where = index && indexes.get(variant).offsets.get(`${kind}/${part}`);
      if (!where) return null;
      const [i, offset, length] = where;
      const blob = await partOf(variant, pack, cache, index, i);
      return blob && new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
    } catch {
      return null; // a pack that cannot be read is no pack: the network is asked
    }
  }

  /** A file read from the pack was refused by Python (a build's fault: its part passed its
   * SHA-256): the part that holds it is evicted all the same, never read again. */
  async function evict(kind, variant, part) {
    const pack = (await build).packs?.[variant];
    const where = pack && indexes.get(variant)?.offsets.get(`${kind}/${part}`);
    if (where) await evictPart(variant, pack, where[0]);
  }

  return { status, download, cancel, bytesOf, evict, resumeEvicted };
}
