// Takes the warm start's snapshot (snapshot.js) away from the page's first advice: the page starts
// this worker when its worker (worker.js) asks, once its first answer is given on a visit that
// found no snapshot, and relays what this worker posts to it (snapshot.js: takeSnapshot). A Pyodide of its own, started with `_makeSnapshot` on the same trimmed runtime (its
// standard library checked against the build's sha256, as worker.js checks it), imports
// PRE_IMPORTS, installs NumPy's wheel (checked by its sha256) and our package's, and imports both
// (snapshot-packages.js: importPackages); its memory is saved under this build's key with the
// record of NumPy's modules. When a wheel cannot be fetched or unpacked, the snapshot holds the
// runtime alone (its record lists no library) and the page's worker installs NumPy after it as on
// a first visit. Posts {step} as each step begins ("starting Python", "importing", "fetching the
// wheels", "importing the packages", "copying memory", "saving"), then {saved: true, packages:
// true|false}, or {saved: false, error} (then a later visit starts afresh and tries again, unless it
// was a lack of space: snapshot-state.js); never an error shown.

import "./lifetime.js"; // first: the page can tell when this worker has ended
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { PRE_IMPORTS, SNAPSHOT_KEY, saveSnapshot } from "./snapshot.js";
import { importPackages } from "./snapshot-packages.js";
import { alteredStdlib } from "./worker-check.js";
import { RUNTIME } from "./runtime.js";
import { fetchWheel, sitePackages, writeFiles } from "./wheel-files.js";
import { fetchJSON } from "./worker-fetch.js";
import { here, pyodideOptions } from "./worker-load.js";

/** NumPy's unpacked files when the wheel's bytes are the build's (sha256); rejects otherwise. */
async function numpyFiles() {
  const url = here(RUNTIME.numpyURL);
  const fetched = await fetchWheel(url, "numpy", { sha256: RUNTIME.numpySha256 });
  if (!fetched) throw new Error(`${url}: not the build's NumPy wheel`);
  return fetched.files;
}

/** Our wheel's unpacked files (build.json names it). */
async function packageFiles() {
  const build = await fetchJSON(here("build.json"), "package");
  return (await fetchWheel(here(build.wheel.url), "package")).files;
}

try {
  const wheels = Promise.all([numpyFiles(), packageFiles()]);
  wheels.catch(() => {});
  postMessage({ step: "starting Python" });
  const pyodide = await loadPyodide({ ...pyodideOptions, _makeSnapshot: true });
  const refused = await alteredStdlib(pyodide);
  if (refused) throw refused;
  postMessage({ step: "importing" });
  pyodide.runPython(PRE_IMPORTS.map((name) => `import ${name}\n`).join(""));
  let record = { libraries: [], slots: pyodide._module.wasmTable.length };
  postMessage({ step: "fetching the wheels" });
  const files = await wheels.catch((error) => console.warn("The snapshot holds the runtime alone:", error));
  if (files) {
    postMessage({ step: "importing the packages" });
    const site = sitePackages(pyodide);
    for (const wheel of files) writeFiles(pyodide, wheel, site);
    const libraries = files[0].filter(([name]) => name.endsWith(".so")).map(([name]) => `${site}/${name}`);
    record = await importPackages(pyodide, libraries);
  }
  postMessage({ step: "copying memory" });
  const memory = pyodide.makeMemorySnapshot();
  postMessage({ step: "saving" });
  const outcome = await saveSnapshot(SNAPSHOT_KEY, memory, record);
  postMessage(outcome.saved ? { ...outcome, packages: Boolean(files) } : outcome);
} catch (error) {
  postMessage({ saved: false, error: String(error?.message ?? error) });
}
