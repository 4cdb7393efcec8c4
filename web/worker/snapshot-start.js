// A start from the warm start's snapshot (snapshot.js) in the page's worker (worker.js): the
// checks before Python's memory is written (snapshot.js: readSnapshot; snapshot-state.js: an
// earlier restore's mark), Pyodide restored, NumPy and our package with it (snapshot-packages.js).

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { SNAPSHOT_KEY, discardSnapshot, pyodideRefused, readSnapshot } from "./snapshot.js";
import { restoreSnapshotPackages } from "./snapshot-packages.js";
import { beginRestore, restoreFinished } from "./snapshot-state.js";
import { failingOnWasmErrors, progress, pyodideOptions, runtimeIn } from "./worker-load.js";
import { fetchNumpyWheel } from "./worker-numpy.js";

/** Pyodide from this build's saved snapshot, or null when there is none or it may not be tried
 * (snapshot.js: another Pyodide, damaged bytes; snapshot-state.js: an earlier restore's mark
 * left) or it does not start (it is then deleted). A failure here is never the page's: the caller
 * starts afresh, `globalThis.runtimeStart` saying why. When the snapshot holds NumPy and our
 * package (snapshot-packages.js), their files are written again and NumPy's modules loaded where
 * they were: `globalThis.packagesRestored` is then true. `unpackedPackage`: our wheel's files
 * (one promise, its rejection handled: worker.js unpacks the wheel once). */
export async function startFromSnapshot(unpackedPackage) {
  const found = pyodideRefused() ? { refused: pyodideRefused() } : await readSnapshot(SNAPSHOT_KEY);
  let why = found?.refused;
  if (found?.snapshot && (why = await beginRestore(SNAPSHOT_KEY))) await discardSnapshot(SNAPSHOT_KEY);
  if (why) {
    console.warn(`Starting afresh: ${why}.`);
    globalThis.runtimeStart = `fresh: ${why}`;
  }
  if (!found?.snapshot || why) return null;
  const saved = found.snapshot;
  globalThis.snapshotChecksumMs = found.checksumMs;
  runtimeIn();
  const numpy = fetchNumpyWheel("high"); // while Python is restored (worker-numpy.js)
  try {
    const pyodide = await failingOnWasmErrors("runtime", () =>
      loadPyodide({ ...pyodideOptions, _loadSnapshot: saved.bytes }),
    );
    pyodide.runPython("import sys"); // the restored interpreter answers
    if (saved.record.libraries.length) {
      await failingOnWasmErrors("runtime", () => restoreSnapshotPackages(pyodide, saved, numpy, unpackedPackage));
      [globalThis.packagesRestored, globalThis.numpyInstall] = [true, "restored from the snapshot"];
      globalThis.numpySteps.installed = globalThis.numpySteps.imported = performance.now();
      progress("numpy-install", "snapshot");
    }
    globalThis.runtimeStart = "snapshot";
    return pyodide;
  } catch (error) {
    console.warn("The saved runtime snapshot did not start; starting afresh.", error);
    globalThis.runtimeStart = `fresh: the snapshot did not start (${error?.message ?? error})`;
    globalThis.packagesRestored = false;
    await discardSnapshot(SNAPSHOT_KEY);
    await restoreFinished();
    return null;
  }
}
