// NumPy for the worker (web/worker/worker.js): its wheel fetched while the runtime starts, then
// installed and imported.
//
// The wheel (the trimmed one of runtime/, its Python modules as bytecode only: tools/site_build/
// runtime.py) is fetched as soon as the worker knows how Python starts: at once beside a snapshot
// start (the files then come from the service worker, and restoring Python takes a second on a
// phone), at low priority beside a fresh start (the runtime's own files come first on the
// network). Its bytes are checked against the sha256 the build published, and loadPackage is then
// handed them from memory instead of asking the network again. Bytes that do not match are not
// handed over: loadPackage fetches the wheel itself and refuses it by our lock file's sha256, as
// it did before (worker.js reports that as a damaged or substituted file).
//
// `numpySteps` (in the worker's global scope, ms on the worker's clock, for the benchmark): when
// the wheel's bytes were in, when loadPackage was done (the wheel unpacked, its three WebAssembly
// modules compiled and linked) and when `import numpy` was.

import { RUNTIME } from "./runtime.js";
import { here, LoadError, sha256 } from "./worker-load.js";

const URL_OF_WHEEL = here(RUNTIME.numpyURL);

globalThis.numpySteps = {};

let wheel = null;

/** Start fetching NumPy's wheel (`priority`: fetch's, "high" or "low"); once only. Resolves to
 * its bytes when they are the build's, else null (never rejects: loadPackage then fetches it). */
export function fetchNumpyWheel(priority) {
  wheel ??= fetch(URL_OF_WHEEL, { priority })
    .then((response) => (response.ok ? response.arrayBuffer() : null))
    .then(async (body) => {
      const bytes = body && new Uint8Array(body);
      if (!bytes || (await sha256(bytes)) !== RUNTIME.numpySha256) return null;
      globalThis.numpySteps.fetched = performance.now();
      return bytes;
    })
    .catch(() => null);
  return wheel;
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

/** Load and import NumPy; a failure names the wheel, with what Pyodide said as details. */
export async function loadNumpy(pyodide) {
  const said = [];
  const bytes = await fetchNumpyWheel("high");
  await servingWheel(bytes, () =>
    pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: (message) => said.push(message) }),
  );
  globalThis.numpySteps.installed = performance.now();
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
