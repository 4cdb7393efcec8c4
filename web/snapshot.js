// The warm start: a memory snapshot of the started Python, kept between visits.
//
// A first visit starts Pyodide with `_makeSnapshot`, imports PRE_IMPORTS and takes a snapshot
// of the runtime's memory (`makeMemorySnapshot`: about 25 MB); the worker saves it once our
// package has loaded. A later visit passes it to `loadPyodide({_loadSnapshot})`, which skips
// starting Python (about a second on a phone) and these imports; NumPy, our package and the
// table are then loaded as on a first visit.
//
// Why not after NumPy: Pyodide 0.27.7's snapshot is the wasm memory only. NumPy's compiled
// modules are separate WebAssembly modules (side modules) loaded by loadPackage; their code
// and function-table slots are not in it. A snapshot taken after `import numpy` restores, but
// the first NumPy call then dies with "RuntimeError: table index is out of bounds" (Pyodide's
// fatal error); taking it also needs `loadedPackages` emptied first, or makeMemorySnapshot
// refuses with "Unexpected hiwire entry at index 6". See the README's benchmark section.
//
// Stored with the Cache API in CACHE (a name the service worker does not manage), under a URL
// that holds the build's snapshot key (runtime.js: a hash of the Pyodide files, the standard
// library and this file), so a new build never starts from an old snapshot; other keys are
// deleted when a snapshot is saved. Any failure to read, save or start from it is a normal
// start (the caller falls back), never an error shown.

const CACHE = "yacht-runtime-snapshot";
/** The first 32-bit word of every Pyodide 0.27.7 snapshot (little-endian), and the least size
 * that can be one (Python's memory alone is more): anything else is not tried. */
const MAGIC = 1886286592;
const LEAST_BYTES = 1 << 24;

/** Imported before the snapshot is taken: what loadPackage, NumPy and our package's first answer
 * import from the standard library anyway (all in web/keep-stdlib.txt). Not what only later
 * answers need (dataclasses: the goal, game and review modules): on a first visit these imports
 * come before NumPy, on the way to the first advice. */
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

/** Save `bytes` as the snapshot of `key`, deleting every other key's. Resolves whatever happens. */
export async function saveSnapshot(key, bytes) {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request);
    }
    const headers = { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) };
    await cache.put(key, new Response(bytes, { headers }));
  } catch (error) {
    console.warn("The runtime snapshot could not be saved:", error);
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
