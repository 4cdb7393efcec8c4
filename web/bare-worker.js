// The benchmark's baseline (bench/bench_page.py, figure a): Pyodide + NumPy and nothing else,
// loaded the way worker.js loads them. Posts {step: "runtime"} once Pyodide is up, {done: true}
// once NumPy is imported, or {error}.

import { loadPyodide } from "./pyodide/pyodide.mjs";

try {
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", import.meta.url).href });
  postMessage({ step: "runtime" });
  await pyodide.loadPackage("numpy", { messageCallback: () => {} });
  pyodide.pyimport("numpy").destroy();
  postMessage({ done: true });
} catch (error) {
  postMessage({ error: String(error?.message ?? error) });
}
