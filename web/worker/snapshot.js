// The warm start: a memory snapshot of the started Python, NumPy and our package imported, kept
// between visits.
//
// A visit that finds no snapshot starts Pyodide plainly, and once its first answer is given the
// page's worker starts snapshot-worker.js: a Pyodide of its own, started with `_makeSnapshot`,
// imports PRE_IMPORTS, installs NumPy's and our wheel and imports `numpy` and `yacht.api`
// (snapshot-packages.js: importPackages), and saves a snapshot of its memory (`makeMemorySnapshot`:
// about 30 MB). Taking it in the page's own worker would put that work on the way to the first
// advice. A later visit passes it to `loadPyodide({_loadSnapshot})`, writes the wheels' files
// again and loads NumPy's WebAssembly modules where they were (snapshot-packages.js:
// restorePackages): no Python start, no import of NumPy or of our package. The table is loaded
// as on a first visit.
//
// Stored with the Cache API in CACHE (a name the service worker does not manage), under a URL
// that holds the build's snapshot key (runtime.js: a hash of the Pyodide files, the standard
// library, both wheels, this file and snapshot-worker.js), so a new build never starts from an
// old snapshot; other keys are deleted when a snapshot is saved. Its bytes: Pyodide's snapshot,
// then the record snapshot-packages.js needs (JSON, UTF-8), its length (u32) and RECORD_MAGIC
// (u32), little-endian. Any failure to read, save or start from it is a normal start (the caller
// falls back), never an error shown.

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

/** The last word of a snapshot of ours ("YSNP"), after its record. */
const RECORD_MAGIC = 0x504e5359;

/** The saved snapshot of `key` as {bytes: Pyodide's snapshot, heap: its memory part, record:
 * snapshot-packages.js's}, or null (none, not one of this format, or the Cache API failed). */
export async function readSnapshot(key) {
  try {
    const cache = await caches.open(CACHE);
    const response = await cache.match(key);
    const saved = response ? new Uint8Array(await response.arrayBuffer()) : null;
    if (!saved) return null;
    const snapshot = split(saved);
    if (snapshot) return snapshot;
    console.warn(`The saved runtime snapshot is not one (${saved.length} bytes): deleted.`);
    await cache.delete(key);
    return null;
  } catch (error) {
    console.warn("No runtime snapshot could be read:", error);
    return null;
  }
}

/** `saved` taken apart (readSnapshot's), or null when it is not a snapshot of this format. */
function split(saved) {
  if (saved.length < LEAST_BYTES || saved.byteOffset % 4) return null;
  const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(saved.length - 4, true) !== RECORD_MAGIC) return null;
  const length = view.getUint32(saved.length - 8, true);
  const end = saved.length - 8 - length;
  if (end < LEAST_BYTES) return null;
  let record;
  try {
    record = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(saved.subarray(end, end + length)));
  } catch {
    return null;
  }
  if (!Array.isArray(record?.libraries) || !Number.isInteger(record.slots)) return null;
  const bytes = saved.subarray(0, end);
  return { bytes, heap: bytes.subarray(view.getUint32(4, true)), record };
}

/** Save `bytes` (Pyodide's snapshot) with `record` (snapshot-packages.js's) as the snapshot of
 * `key`, deleting every other key's. Resolves to whether it was saved, whatever happens. */
export async function saveSnapshot(key, bytes, record) {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request);
    }
    const json = new TextEncoder().encode(JSON.stringify(record));
    const tail = new DataView(new ArrayBuffer(8));
    tail.setUint32(0, json.length, true);
    tail.setUint32(4, RECORD_MAGIC, true);
    const body = new Blob([bytes, json, tail]);
    const headers = { "Content-Type": "application/octet-stream", "Content-Length": String(body.size) };
    await cache.put(key, new Response(body, { headers }));
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
