// NumPy for the worker (web/worker/worker.js): its wheel fetched while the runtime starts, then
// installed and imported.
//
// The wheel (the trimmed one of runtime/, its Python modules as bytecode only: tools/site_build/
// runtime.py) is fetched as soon as the worker knows how Python starts: at once beside a snapshot
// start (the files then come from the service worker, and restoring Python takes a second on a
// phone), at low priority beside a fresh start (the runtime's own files come first on a slow
// network: worker-load.js, runtimeFirst). Its bytes are checked against the sha256 the build
// published (fetched once more from the server, past the caches, when they are not) and unpacked by
// the browser (DecompressionStream: wheel-files.js), still while Python starts; once it runs, the
// files are written into site-packages and NumPy's two WebAssembly modules loaded as loadPackage
// loads them (Pyodide's loadDynlib), without the Python zipfile unpacking loadPackage does (about
// 0.5 s of a second visit on a phone-like CPU). Should anything of that fail (no
// DecompressionStream, a Pyodide without loadDynlib, bytes that are not the build's), loadPackage
// does it all as before: it fetches the wheel itself (handed the bytes from memory when they are
// the build's) and refuses one whose sha256 is not our lock file's (worker.js reports a damaged or
// substituted file).
//
// `numpySteps` (in the worker's global scope, ms on the worker's clock, for the benchmark): when
// the wheel's bytes were in (`fetched`) and unpacked (`unpacked`), when a start from the snapshot,
// its runtime restored, came to need them (`wanted`: snapshot-packages.js), when its files were installed
// and its WebAssembly modules loaded (`installed`), when `import numpy` was done (`imported`);
// `numpyInstall` says how: "unpacked in JavaScript", or "loadPackage" and why (or, set by
// worker.js, "restored from the snapshot": snapshot-packages.js, both moments at once). The page
// is told of these moments by progress messages of their own, which it marks
// (`yacht:<step>:<state>`: the benchmarks' and the engine tests' view of them) and does not show
// (it shows four steps): {step: "numpy-wheel", state: "fetched" or "unpacked"}, {step:
// "numpy-install", state: "javascript", "loadPackage" or "snapshot"} once installed.

import { RUNTIME } from "./runtime.js";
import { fetchWheel, sitePackages, writeFiles } from "./wheel-files.js";
import { here, LoadError, progress } from "./worker-load.js";

const URL_OF_WHEEL = here(RUNTIME.numpyURL);

globalThis.numpySteps = {};
const UNPACKED = "unpacked in JavaScript";

let wheel = null;

/** Start fetching NumPy's wheel (`priority`: fetch's, "high" or "low") and unpacking it; once
 * only. Bytes that are not the build's (a damaged copy the service worker kept, say) are fetched
 * once more from the server, past every cache (wheel-files.js: fetchWheel). Resolves to {bytes,
 * files} when the bytes are the build's (`files`: a promise of the unpacked members, rejected
 * when they cannot be), else null (never rejects). */
export function fetchNumpyWheel(priority) {
  wheel ??= (async () => {
    const fetched = await fetchWheel(URL_OF_WHEEL, "numpy", { sha256: RUNTIME.numpySha256, priority }).catch(
      () => null,
    );
    if (!fetched) return null;
    globalThis.numpySteps.fetched = performance.now();
    progress("numpy-wheel", "fetched");
    fetched.files
      .then(() => {
        globalThis.numpySteps.unpacked = performance.now();
        progress("numpy-wheel", "unpacked");
      })
      .catch(() => {});
    return fetched;
  })();
  return wheel;
}

/** Write `files` into `site` and load the WebAssembly modules among them as loadPackage would
 * (Pyodide's loadDynlib: each a library of its own, not global), in the wheel's order. */
async function install(pyodide, files, site) {
  writeFiles(pyodide, files, site);
  for (const [name] of files) {
    if (name.endsWith(".so")) await pyodide._api.loadDynlib(`${site}/${name}`, false, []);
  }
}

/** `work()` with fetch answering the wheel's URL from `bytes` (when not null). */
async function servingWheel(bytes, work) {
  const { fetch: original } = globalThis;
  if (bytes) {
    globalThis.fetch = (resource, init) =>
      new URL(String(resource?.url ?? resource), URL_OF_WHEEL).href === URL_OF_WHEEL
        ? Promise.resolve(new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }))
        : original(resource, init);
  }
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}

/** "unpacked in JavaScript" when the wheel `fetched` (fetchNumpyWheel's) is installed, else
 * "loadPackage: <why not>" (nothing was loaded: loadPackage then installs it all). */
async function installed(pyodide, fetched) {
  if (!fetched) return "loadPackage: the wheel's bytes were not the build's, or did not come";
  if (typeof pyodide._api?.loadDynlib !== "function") return "loadPackage: no loadDynlib in this Pyodide";
  let files;
  try {
    files = await fetched.files;
  } catch (error) {
    return `loadPackage: the wheel was not unpacked (${error?.message ?? error})`;
  }
  const site = sitePackages(pyodide);
  if (!site) return "loadPackage: no site-packages on sys.path";
  try {
    await install(pyodide, files, site);
  } catch (error) {
    return `loadPackage: the unpacked wheel did not install (${error?.message ?? error})`;
  }
  return UNPACKED;
}

/** Load and import NumPy; a failure names the wheel, with what Pyodide said as details. */
export async function loadNumpy(pyodide) {
  const said = [];
  const fetched = await fetchNumpyWheel("high");
  const how = (globalThis.numpyInstall = await installed(pyodide, fetched));
  if (how !== UNPACKED) {
    console.info(`NumPy installed by ${how}`);
    await servingWheel(fetched?.bytes, () =>
      pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: (message) => said.push(message) }),
    );
  }
  globalThis.numpySteps.installed = performance.now();
  progress("numpy-install", how === UNPACKED ? "javascript" : "loadPackage");
  try {
    pyodide.pyimport("numpy").destroy();
  } catch (error) {
    const wheelName = pyodide._api?.lockfile_packages?.numpy?.file_name?.split("/").pop() ?? "the NumPy wheel";
    const reason = said.length ? ` (${said.at(-1).trim().split("\n").pop()})` : ""; // what loadPackage said last
    said.push(String(error?.message ?? error));
    throw new LoadError("numpy", `${wheelName}: NumPy could not be loaded${reason}`, said.join("\n"));
  }
  globalThis.numpySteps.imported = performance.now();
  for (const message of said) console.warn(message);
}
