// The warm start: a memory snapshot of the started Python, NumPy and our package imported, kept
// between visits.
//
// A visit that finds no snapshot starts Pyodide plainly, and once its first answer is given the
// page's worker has the page start snapshot-worker.js (takeSnapshot): a Pyodide of its own, started with `_makeSnapshot`,
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
// then the record snapshot-packages.js needs (JSON, UTF-8), the SHA-256 of both (32 bytes), the
// record's length (u32) and RECORD_MAGIC (u32), little-endian.
//
// Nothing is written into Python's memory before the snapshot passed every check: the running
// Pyodide is PYODIDE_VERSION (the one whose snapshot layout this file and snapshot-packages.js
// know; the site build checks that package.json pins it), the bytes are whole (their SHA-256),
// and the offsets and lengths of Pyodide's header and of the record lie inside them. A restore
// that takes the tab down is never tried again (snapshot-state.js: the begun mark). Any failure
// to read, save or start from it is a normal start (the caller falls back), said in the console,
// never an error shown.

import { version } from "./pyodide/pyodide.mjs";
import { RUNTIME } from "./runtime.js";
import { forgetNoSpace, rememberNoSpace, rememberOutcome, snapshotRefused } from "./snapshot-state.js";
import { progress } from "./worker-load.js";

/** Where this build's snapshot is kept (a URL beside this file). */
export const SNAPSHOT_KEY = new URL(`runtime/snapshot?build=${RUNTIME.snapshotKey}`, import.meta.url).href;

/** The one Pyodide version whose snapshots this code reads and takes (tools/site_build/runtime.py
 * refuses a build whose package.json pins another). */
export const PYODIDE_VERSION = "0.27.7";

const CACHE = "yacht-runtime-snapshot";
/** The first 32-bit word of every Pyodide 0.27.7 snapshot (little-endian), and the least size
 * that can be one (Python's memory alone is more): anything else is not tried. */
const MAGIC = 1886286592;
const LEAST_BYTES = 1 << 24;
/** Pyodide 0.27.7's snapshot header: magic, heap offset, JSON length, a word, the build id (32
 * bytes); its JSON follows, its memory starts at the heap offset. */
const HEADER_BYTES = 48;
const DIGEST_BYTES = 32;

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

/** The last word of a snapshot of ours ("YSN2"), after its record and checksum. */
const RECORD_MAGIC = 0x324e5359;

/** Why the running Pyodide may not read or take this code's snapshots, or null. */
export function pyodideRefused() {
  return version === PYODIDE_VERSION ? null : `Pyodide ${version} is not the snapshot's ${PYODIDE_VERSION}`;
}

/** The saved snapshot of `key`: {snapshot: {bytes: Pyodide's snapshot, heap: its memory part,
 * record: snapshot-packages.js's}}, {refused: why} (it was there and is deleted), or null (none,
 * or the Cache API failed). `checksumMs`: how long its SHA-256 took (for the tests). */
export async function readSnapshot(key) {
  let cache;
  let saved;
  try {
    cache = await caches.open(CACHE);
    const response = await cache.match(key);
    if (!response) return null;
    saved = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    console.warn("No runtime snapshot could be read:", error);
    return null;
  }
  const started = performance.now();
  const taken = await split(saved);
  const checksumMs = performance.now() - started;
  if (taken.snapshot) return { ...taken, checksumMs };
  console.warn(`The saved runtime snapshot is refused (${taken.refused}): deleted; starting afresh.`);
  await discardSnapshot(key);
  return taken;
}

/** `saved` taken apart (readSnapshot's): {snapshot} or {refused: why}. */
async function split(saved) {
  const damaged = (why) => ({ refused: `the saved snapshot is damaged (${why})` });
  if (saved.length < LEAST_BYTES || saved.byteOffset % 4)
    return { refused: `the saved snapshot is not one (${saved.length} bytes)` };
  const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  if (view.getUint32(saved.length - 4, true) !== RECORD_MAGIC)
    return damaged("no record at its end: cut short, or not one");
  const length = view.getUint32(saved.length - 8, true);
  const end = saved.length - 8 - DIGEST_BYTES - length;
  if (end < LEAST_BYTES) return damaged(`a record of ${length} bytes`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", saved.subarray(0, end + length)));
  if (!digest.every((byte, i) => byte === saved[end + length + i])) return damaged("its SHA-256 is not the one saved");
  if (view.getUint32(0, true) !== MAGIC) return damaged("not Pyodide's magic number");
  const [heapAt, json] = [view.getUint32(4, true), view.getUint32(8, true)];
  if (heapAt < HEADER_BYTES + json || heapAt >= end || heapAt % 8) return damaged(`a heap at ${heapAt} of ${end}`);
  let record;
  try {
    record = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(saved.subarray(end, end + length)));
  } catch {
    return damaged("its record is not JSON");
  }
  if (!Array.isArray(record?.libraries) || !Number.isInteger(record.slots)) return damaged("its record is not ours");
  const bytes = saved.subarray(0, end);
  return { snapshot: { bytes, heap: bytes.subarray(heapAt), record } };
}

/** Save `bytes` (Pyodide's snapshot) with `record` (snapshot-packages.js's) and their SHA-256 as
 * the snapshot of `key`, deleting every other key's. Resolves to {saved: true}, or {saved: false,
 * error} (a lack of space is remembered with the size needed: snapshot-state.js), whatever
 * happens. */
export async function saveSnapshot(key, bytes, record) {
  const json = new TextEncoder().encode(JSON.stringify(record));
  const tail = new DataView(new ArrayBuffer(8));
  tail.setUint32(0, json.length, true);
  tail.setUint32(4, RECORD_MAGIC, true);
  let body;
  try {
    const digest = await crypto.subtle.digest("SHA-256", await new Blob([bytes, json]).arrayBuffer());
    body = new Blob([bytes, json, digest, tail]);
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request);
    }
    const headers = { "Content-Type": "application/octet-stream", "Content-Length": String(body.size) };
    await cache.put(key, new Response(body, { headers }));
    await forgetNoSpace(key);
    return { saved: true };
  } catch (error) {
    console.warn("The runtime snapshot could not be saved:", error);
    if (error?.name === "QuotaExceededError" && body) await rememberNoSpace(key, body.size);
    return { saved: false, error: `the Cache API did not keep it (${error?.name ?? error})` };
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

/** The current try's handler of what snapshot-worker.js says (the page relays it: receiveSnapshotNews), or null. */
let listener = null;

/** What snapshot-worker.js said ({step}, or its outcome), relayed by the page (worker.js routes it here). */
export function receiveSnapshotNews(news) {
  listener?.(news);
}

/** Have snapshot-worker.js started, unless this build's snapshots are not to be taken here
 * (snapshot-state.js: snapshotRefused); resolves when it is done (saved or not) or has taken too
 * long. The page starts and ends that worker when this worker asks ({type: "snapshot-worker",
 * action: "start" | "end"}) and relays what it says (web/page/requests/worker-client.js): Firefox
 * sometimes never returns from a worker started by a worker (1 in about 40 fresh starts of its
 * engine test under load), blocking this worker's timers and messages, and no engine needs it.
 * `globalThis.snapshotOutcome` is then what happened, also kept (snapshot-state.js: the outcome
 * entry), and the page is told {type: "progress", step: "snapshot", state: "taking"} at the start,
 * "at <step>" as snapshot-worker.js begins each step, and "saved", "failed" or "refused" at the
 * end (marks it does not show; the engine tests wait on them). A try that takes too long fails
 * with the step it was in ("timed out while saving"). */
export async function takeSnapshot() {
  progress("snapshot", "taking");
  const refused = pyodideRefused() ?? (await snapshotRefused(SNAPSHOT_KEY));
  if (refused) {
    globalThis.snapshotOutcome = { saved: false, error: refused };
    console.info("No runtime snapshot taken:", refused);
    progress("snapshot", "refused");
    return rememberOutcome(SNAPSHOT_KEY, globalThis.snapshotOutcome);
  }
  await new Promise((resolve) => {
    let at = "starting"; // the step snapshot-worker.js last said it began ({step}), named if it times out
    const done = (outcome) => {
      clearTimeout(timer);
      listener = null;
      postMessage({ type: "snapshot-worker", action: "end" });
      globalThis.snapshotOutcome = outcome;
      if (!outcome.saved) console.warn("No runtime snapshot taken:", outcome.error);
      progress("snapshot", outcome.saved ? "saved" : "failed");
      rememberOutcome(SNAPSHOT_KEY, outcome).then(resolve);
    };
    const timer = setTimeout(() => done({ saved: false, error: `timed out while ${at}` }), SNAPSHOT_TIMEOUT_MS);
    listener = (news) => {
      if (!news.step) return done(news);
      at = news.step;
      progress("snapshot", `at ${news.step}`); // marked by the page: a try that hangs shows where
    };
    postMessage({ type: "snapshot-worker", action: "start" });
  });
}
