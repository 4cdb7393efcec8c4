// Takes the warm start's snapshot (snapshot.js) away from the page's first advice: the page's worker's
// worker (worker.js) starts this worker once its first answer is given, on a visit that found no
// snapshot. A Pyodide of its own, started with `_makeSnapshot` on the same trimmed runtime (its
// standard library checked against the build's sha256, as worker.js checks it), imports
// PRE_IMPORTS, and its memory is saved under this build's key. Posts {saved: true}, or
// {saved: false, error} (then a later visit starts afresh and tries again); never an error shown.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { PRE_IMPORTS, SNAPSHOT_KEY, saveSnapshot } from "./snapshot.js";
import { alteredStdlib, pyodideOptions } from "./worker-load.js";

try {
  const pyodide = await loadPyodide({ ...pyodideOptions, _makeSnapshot: true });
  const refused = await alteredStdlib(pyodide);
  if (refused) throw refused;
  pyodide.runPython(PRE_IMPORTS.map((name) => `import ${name}\n`).join(""));
  const saved = await saveSnapshot(SNAPSHOT_KEY, pyodide.makeMemorySnapshot());
  postMessage(saved ? { saved } : { saved, error: "the Cache API did not keep it" });
} catch (error) {
  postMessage({ saved: false, error: String(error?.message ?? error) });
}
