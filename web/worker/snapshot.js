// The warm start: a memory snapshot of the started Python, kept between visits.
//
// A visit that finds no snapshot starts Pyodide plainly, and once its first answer is given the
// page's worker starts snapshot-worker.js: a Pyodide of its own, started with `_makeSnapshot`,
// imports PRE_IMPORTS and saves a snapshot of its memory (`makeMemorySnapshot`: about 25 MB).
// Taking it in the page's own worker put those imports and the copy before NumPy, on the way to
// the first advice (about 4 % of a first visit). A later visit passes it to
// `loadPyodide({_loadSnapshot})`, which skips starting Python (about a second on a phone) and
// these imports; NumPy, our package and the table are then loaded as on a first visit.
//
// Why not after NumPy: Pyodide 0.27.7's snapshot is the wasm memory only. NumPy's compiled
// modules are separate WebAssembly modules (side modules) loaded by loadPackage; their code
// and function-table slots are not in it. A snapshot taken after `import numpy` restores, but
// the first NumPy call then dies with "RuntimeError: table index is out of bounds" (Pyodide's
// fatal error); taking it also needs `loadedPackages` emptied first, or makeMemorySnapshot
// refuses with "Unexpected hiwire entry at index 6". See docs/benchmarks.md.
//
// Stored with the Cache API in CACHE (a name the service worker does not manage), under a URL
// that holds the build's snapshot key (runtime.js: a hash of the Pyodide files, the standard
// library, this file and snapshot-worker.js), so a new build never starts from an old snapshot;
// other keys are deleted when a snapshot is saved. Any failure to read, save or start from it is
// a normal start (the caller falls back), never an error shown.

import { RUNTIME } from "./runtime.js";
import { here } from "./worker-load.js";

/** Where this build's snapshot is kept (a URL beside this file). */
export const SNAPSHOT_KEY = new URL(`runtime/snapshot?build=${RUNTIME.snapshotKey}`, import.meta.url).href;

const CACHE = "yacht-runtime-snapshot";
/** The first 32-bit word of every Pyodide 0.27.7 snapshot (little-endian), and the least size
 * that can be one (Python's memory alone is more): anything else is not tried. */
const MAGIC = 1886286592;
const LEAST_BYTES = 1 << 24;

/** Imported before the snapshot is taken: what loadPackage, NumPy and our package import from the
 * standard library anyway (all in tools/keep-stdlib.txt), so that a warm start skips them too. */
export const PRE_IMPORTS = [
  "importlib.metadata",
  "email.message",
  "csv",
  "datetime",
  "zipfile",
  "tarfile",
  "shutil",
  "tempfile",
  "json",
  "pathlib",
  "inspect",
  "typing",
  "dataclasses",
  "ast",
  "pickle",
  "platform",
  "random",
  "hashlib",
  "base64",
  "urllib.parse",
  "ctypes",
  "traceback",
];

/** The saved snapshot of `key` (a URL), or null (none, or the Cache API failed). */
export async function readSnapshot(key) {
  try {
    const cache = await caches.open(CACHE);
    const response = await cache.match(key);
    const bytes = response ? new Uint8Array(await response.arrayBuffer()) : null;
    if (!bytes) return null;
    if (bytes.length >= LEAST_BYTES && new DataView(bytes.buffer).getUint32(0, true) === MAGIC) return bytes;
    console.warn(`The saved runtime snapshot is not one (${bytes.length} bytes): deleted.`);
    await cache.delete(key);
    return null;
  } catch (error) {
    console.warn("No runtime snapshot could be read:", error);
    return null;
  }
}

/** Save `bytes` as the snapshot of `key`, deleting every other key's. Resolves to whether it was
 * saved, whatever happens. */
export async function saveSnapshot(key, bytes) {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request);
    }
    const headers = { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) };
    await cache.put(key, new Response(bytes, { headers }));
    return true;
  } catch (error) {
    console.warn("The runtime snapshot could not be saved:", error);
    return false;
  }
}

/** Delete the snapshot of `key` (it did not start). */
export async function discardSnapshot(key) {
  try {
    await (await caches.open(CACHE)).delete(key);
  } catch (error) {
    console.warn("The runtime snapshot could not be deleted:", error);
  }
}

/** How long taking the snapshot (snapshot-worker.js) may take at most. */
const SNAPSHOT_TIMEOUT_MS = 120_000;

/** Start snapshot-worker.js; resolves when it is done (saved or not) or has taken too long. */
export function takeSnapshot() {
  return new Promise((resolve) => {
    const worker = new Worker(here("snapshot-worker.js"), { type: "module" });
    const done = (outcome) => {
      clearTimeout(timer);
      worker.terminate();
      globalThis.snapshotOutcome = outcome; // for the tests
      if (!outcome.saved) console.warn("No runtime snapshot taken:", outcome.error);
      resolve();
    };
    const timer = setTimeout(() => done({ saved: false, error: "timed out" }), SNAPSHOT_TIMEOUT_MS);
    worker.onmessage = ({ data }) => done(data);
    worker.onerror = (event) => {
      event.preventDefault();
      done({ saved: false, error: event.message || "snapshot-worker.js did not load" });
    };
  });
}
