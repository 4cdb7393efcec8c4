// The offline packs (tools/site_build/pack.py: the format): per rule variant, every table file
// fetched after the start in a few parts, downloaded at once so that playing to win works with no
// network. The worker keeps a pack's index and parts in a Cache Storage cache of its own named
// after the pack's hash (a new build's pack never mixes with an old one's; the others are deleted),
// so it survives a relaunch; a download interrupted resumes at the first part not kept. Once a
// part is kept, the files in it are read from there instead of the network (bytesOf).
//
// The page is told how a pack stands with {type: "pack", variant, state, received, total}:
// state "none" (nothing kept), "partial" (some parts kept, not downloading), "downloading",
// "ready" (every part kept), "failed" (with `message`), "unavailable" (no Cache Storage here).

import { here } from "./worker-load.js";

const PREFIX = "yacht-pack-";
const FORMAT = "yacht-pack";
const VERSION = 1;

/** The packs of one worker; `build` resolves to build.json, `tell(news)` posts to the page. */
export function offlinePacks(build, tell) {
  /** variant -> {index, offsets: Map("kind/part" -> [part, offset, length])}, once read. */
  const indexes = new Map();
  /** variant -> AbortController of the download under way. */
  const downloads = new Map();
  /** "variant/i" -> the kept part's Blob (read from the cache once). */
  const blobs = new Map();

  const available = () => typeof caches !== "undefined";

  async function entry(variant) {
    const b = await build;
    const pack = b.packs?.[variant];
    if (!pack) throw new Error(`build.json lists no offline pack for ${variant}`);
    return pack;
  }

  const cacheName = (variant, pack) => `${PREFIX}${variant}-${pack.hash}`;
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

  /** The pack's index, from the cache or the network; refused when of another format or version. */
  async function readIndex(variant, pack, cache, fromNetwork) {
    if (indexes.has(variant)) return indexes.get(variant).index;
    let response = await cache.match(indexURL(pack));
    if (!response && !fromNetwork) return null;
    if (!response) {
      response = await fetch(indexURL(pack));
      if (!response.ok) throw new Error(`${pack.url}index.json: HTTP ${response.status}`);
      await cache.put(indexURL(pack), response.clone());
    }
    const index = await response.json();
    if (index.format !== FORMAT || index.version !== VERSION || index.hash !== pack.hash) {
      await caches.delete(cacheName(variant, pack));
      throw new Error(`${pack.url}index.json: not a ${FORMAT} ${VERSION} index of this build`);
    }
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

  /** How `variant`'s pack stands now: {variant, state, received, total} (bytes). */
  async function status(variant) {
    const pack = await entry(variant);
    const news = { variant, received: 0, total: pack.bytes };
    if (!available()) return { ...news, state: "unavailable" };
    await forgotten;
    const kept = (await caches.has(cacheName(variant, pack))) && (await caches.open(cacheName(variant, pack)));
    const index = kept && (await readIndex(variant, pack, kept, false));
    if (!index) return { ...news, state: downloads.has(variant) ? "downloading" : "none" };
    const cache = kept;
    const parts = await Promise.all(index.parts.map(async (_, i) => Boolean(await cache.match(partURL(pack, i)))));
    const received = index.parts.reduce((sum, bytes, i) => sum + (parts[i] ? bytes : 0), 0);
    const state = parts.every(Boolean) ? "ready" : downloads.has(variant) ? "downloading" : "partial";
    return { ...news, state, received: state === "ready" ? pack.bytes : received };
  }

  /** Download `variant`'s pack, the parts not kept yet, telling the page how far it got; resolves
   * to the last news (ready, failed, or after a cancel how it stands). */
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
      const cache = await caches.open(cacheName(variant, pack));
      const index = await readIndex(variant, pack, cache, true);
      for (let i = 0; i < index.parts.length; i++) {
        if (await cache.match(partURL(pack, i))) {
          received += index.parts[i];
          continue;
        }
        news("downloading");
        const response = await fetch(partURL(pack, i), { signal: controller.signal });
        if (!response.ok) throw new Error(`${pack.url}${i}.part: HTTP ${response.status}`);
        const reader = response.body.getReader();
        const chunks = [];
        let told = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.byteLength;
          if (performance.now() - told > 200) {
            told = performance.now();
            news("downloading");
          }
        }
        const blob = new Blob(chunks);
        if (blob.size !== index.parts[i])
          throw new Error(`${pack.url}${i}.part: ${blob.size} bytes, not ${index.parts[i]}`);
        await cache.put(
          partURL(pack, i),
          new Response(blob, { headers: { "Content-Type": "application/octet-stream" } }),
        );
      }
      downloads.delete(variant);
      received = pack.bytes;
      news("ready");
    } catch (error) {
      downloads.delete(variant);
      const cancelled = controller.signal.aborted;
      const now = await status(variant).catch(() => ({ state: "none", received }));
      received = now.received;
      news(cancelled ? now.state : "failed", cancelled ? {} : { message: String(error?.message ?? error) });
    }
    return last;
  }

  /** Stop `variant`'s download (the parts kept stay: a later download resumes after them). */
  function cancel(variant) {
    downloads.get(variant)?.abort();
  }

  /** The bytes of file `part` of `kind` of `variant` from its pack, or null where no kept part
   * holds it (the caller fetches it from the network). */
  async function bytesOf(kind, variant, part) {
    if (!available()) return null;
    const b = await build;
    const pack = b.packs?.[variant];
    if (!pack) return null;
    try {
      if (!indexes.has(variant) && !(await caches.has(cacheName(variant, pack)))) return null;
      const cache = await caches.open(cacheName(variant, pack));
      if (!(await readIndex(variant, pack, cache, false))) return null;
      const where = indexes.get(variant).offsets.get(`${kind}/${part}`);
      if (!where) return null;
      const [i, offset, length] = where;
      const key = `${variant}/${i}`;
      if (!blobs.has(key)) {
        const response = await cache.match(partURL(pack, i));
        if (!response) return null;
        blobs.set(key, await response.blob());
      }
      return new Uint8Array(
        await blobs
          .get(key)
          .slice(offset, offset + length)
          .arrayBuffer(),
      );
    } catch {
      return null; // a pack that cannot be read is no pack: the network is asked
    }
  }

  return { status, download, cancel, bytesOf };
}
