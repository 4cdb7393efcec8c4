// The benchmark's baseline (bench/bench_page.py, figure a): Pyodide + NumPy and nothing else,
// loaded the way worker.js loads them, from the same trimmed runtime files (runtime.js). Posts
// {step: "runtime"} once Pyodide is up, {done: true} once NumPy is imported, or {error}.

import { loadPyodide } from "./pyodide/pyodide.mjs";
import { RUNTIME } from "./runtime.js";

const here = (path) => new URL(path, import.meta.url).href;

try {
  const pyodide = await loadPyodide({
    indexURL: here(RUNTIME.indexURL),
    stdLibURL: here(RUNTIME.stdLibURL),
    lockFileURL: here(RUNTIME.lockFileURL),
  });
  postMessage({ step: "runtime" });
  await pyodide.loadPackage("numpy", { messageCallback: () => {} });
  pyodide.pyimport("numpy").destroy();
  postMessage({ done: true });
} catch (error) {
  postMessage({ error: String(error?.message ?? error) });
}
