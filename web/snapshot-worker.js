// Takes the warm start's snapshot (snapshot.js) away from the page's first advice: the advisor's
// worker (worker.js) starts this worker once its first answer is given, on a visit that found no
// snapshot. A Pyodide of its own, started with `_makeSnapshot` on the same trimmed runtime (its
// standard library checked against the build's sha256, as worker.js checks it), imports
// PRE_IMPORTS, and its memory is saved under this build's key. Posts {saved: true}, or
// {saved: false, error} (then a later visit starts afresh and tries again); never an error shown.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { RUNTIME } from "./runtime.js";
import { PRE_IMPORTS, SNAPSHOT_KEY, saveSnapshot } from "./snapshot.js";
import { altered, here } from "./worker-load.js";

try {
  const pyodide = await loadPyodide({
    indexURL: here(RUNTIME.indexURL),
    stdLibURL: here(RUNTIME.stdLibURL),
    lockFileURL: here(RUNTIME.lockFileURL),
    _makeSnapshot: true,
  });
  const zip = pyodide.FS.readdir("/lib").find((name) => /^python\d+\.zip$/.test(name));
  const refused = await altered(
    "runtime",
    here(RUNTIME.stdLibURL),
    RUNTIME.stdLibSha256,
    pyodide.FS.readFile(`/lib/${zip}`),
  );
  if (refused) throw refused;
  pyodide.runPython(PRE_IMPORTS.map((name) => `import ${name}\n`).join(""));
  const saved = await saveSnapshot(SNAPSHOT_KEY, pyodide.makeMemorySnapshot());
  postMessage(saved ? { saved } : { saved, error: "the Cache API did not keep it" });
} catch (error) {
  postMessage({ saved: false, error: String(error?.message ?? error) });
}
