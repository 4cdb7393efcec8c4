// The worker's loading steps (web/worker/worker.js runs them): a failure to load one step as a
// LoadError naming the file, progress messages to the page, the guard that turns a WebAssembly
// module that fails to compile into a LoadError, loadPyodide's options (pyodideOptions, shared
// with snapshot-worker.js), the runtime's files asked for as the worker starts (earlyRuntimeFiles)
// and the gate that lets the runtime's own files come first.

import { RUNTIME } from "./runtime.js";

/** A failure to load one step ("runtime", "numpy", "package" or "table"), reported as
 * {kind: "load", step, message, details}: `message` is plain and names the file, `details`
 * (may be empty) is what the runtime said, for the page to fold away. */
export class LoadError extends Error {
  constructor(step, message, details = "") {
    super(message);
    this.step = step;
    this.details = details;
  }
}

export function progress(step, state, detail = {}) {
  postMessage({ type: "progress", step, state, ...detail });
}

/** Run one loading step, reporting its start and end; failures become LoadErrors naming it. */
export async function step(name, detail, work) {
  progress(name, "start", detail);
  try {
    const value = await work();
    progress(name, "done", detail);
    return value;
  } catch (error) {
    progress(name, "failed", detail);
    throw error instanceof LoadError ? error : new LoadError(name, String(error?.message ?? error));
  }
}

/** `path` relative to this file, as an absolute URL (the site's layout: see tools/build_site.py). */
export const here = (path) => new URL(path, import.meta.url).href;

/** The last part of a URL's path: the file a message names. */
export const fileOf = (url) => decodeURIComponent(new URL(url, import.meta.url).pathname.split("/").pop());

/** `work()`, failing as soon as a WebAssembly module fails to compile or instantiate meanwhile;
 * `compiled(file)` is called as each module streamed in (instantiateStreaming) is instantiated.
 *
 * Pyodide 0.27.7 only logs a failed instantiation of pyodide.asm.wasm (an HTTP error, a
 * truncated or damaged file) and never settles loadPyodide; watching WebAssembly's own entry
 * points turns that into a LoadError of `stepName` naming the file and the reason. */
export async function failingOnWasmErrors(stepName, work, compiled = () => {}) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  const report = (file, error) => {
    const failure = error instanceof LoadError ? error : new LoadError(stepName, `${file}: ${error?.message ?? error}`);
    fail(failure);
    return failure;
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    const file = fileOf(response.url || "pyodide.asm.wasm");
    if (!response.ok)
      throw report(file, new LoadError(stepName, `${file}: HTTP ${response.status} ${response.statusText}`.trim()));
    let instance;
    try {
      instance = await instantiateStreaming.call(WebAssembly, response, imports);
    } catch (error) {
      throw report(file, error);
    }
    compiled(file);
    return instance;
  };
  WebAssembly.instantiate = async (...args) => {
    try {
      return await instantiate.apply(WebAssembly, args);
    } catch (error) {
      throw report("WebAssembly module", error);
    }
  };
  try {
    return await Promise.race([work(), failed]);
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
}

/** loadPyodide's options: the site's trimmed runtime (runtime.js, written by tools/build_site.py). */
export const pyodideOptions = {
  indexURL: here(RUNTIME.indexURL),
  stdLibURL: here(RUNTIME.stdLibURL),
  lockFileURL: here(RUNTIME.lockFileURL),
};

/** The runtime's files loadPyodide fetches (pyodide.asm.wasm, the standard library, the lock
 * file), asked for as soon as the worker starts rather than when loadPyodide asks, after the
 * worker has looked for a snapshot (about 20 ms later on a first visit). `serving(work)`: work()
 * with fetch answering each of those URLs once from its early request (loadPyodide asks for
 * each once). `globalThis.earlyRuntimeFiles` (for the tests): the files loadPyodide was handed,
 * and those it never asked for (`unused`: fetched for nothing), once `work` is done. */
export function earlyRuntimeFiles() {
  const urls = [`${pyodideOptions.indexURL}pyodide.asm.wasm`, pyodideOptions.stdLibURL, pyodideOptions.lockFileURL];
  const early = new Map(urls.map((url) => [url, fetch(url)]));
  for (const response of early.values()) response.catch(() => {}); // loadPyodide reports a failure
  openWhenFast(pyodideOptions.stdLibURL); // 0.98 MB: how fast the network is, long before the runtime is in
  const served = [];
  return {
    async serving(work) {
      const { fetch: original } = globalThis;
      globalThis.fetch = (resource, init) => {
        const url = new URL(String(resource?.url ?? resource), location.href).href;
        const response = early.get(url);
        if (!response) return original(resource, init);
        early.delete(url);
        served.push(fileOf(url));
        return response;
      };
      try {
        return await work();
      } finally {
        globalThis.fetch = original;
        globalThis.earlyRuntimeFiles = { served, unused: [...early.keys()].map(fileOf) };
        early.clear();
      }
    },
  };
}

// The runtime's files first ---------------------------------------------------------------------

/** The speed (bytes a millisecond, on the wire) at which the standard library, fetched beside
 * pyodide.asm.wasm, must have come for runtimeFirst to open before the runtime is in: 2,500, 20
 * Mbit/s. A network that fast can carry the rest beside the runtime's 3.2 MB, and the rest is
 * then checked and unpacked while the runtime compiles (on localhost, NumPy imported about 0.2 s
 * sooner: docs/benchmarks.md, the cold start); the phone's network (9 Mbit/s, shared with the
 * runtime) is far below it. */
export const FAST_NETWORK_BYTES_PER_MS = 2500;

let openRuntimeFirst;
/** Resolves once a fresh start's runtime is in (pyodide.asm.wasm: 3.2 MB, compiled before Python
 * can start), or sooner on a fast network (openWhenFast), at once on a snapshot start (the
 * runtime then comes from the cache). What is needed only once Python runs (NumPy's wheel, our
 * wheel, the first table: 1.5 MB) is fetched after it, so that on a slow network the runtime has
 * the network to itself and Python starts about 2 s sooner on a phone's network
 * (docs/benchmarks.md: a phone's CPU). `globalThis.runtimeFirstOpened` (for the tests and the
 * benchmark): why it opened, "runtime in" or "fast network". */
export const runtimeFirst = new Promise((resolve) => {
  openRuntimeFirst = resolve;
});

function open(why) {
  globalThis.runtimeFirstOpened ??= why;
  openRuntimeFirst();
}

/** Open runtimeFirst (the runtime's WebAssembly is in, or no longer awaited). */
export const runtimeIn = () => open("runtime in");

/** Open runtimeFirst once `url` (fetched as the worker starts, beside pyodide.asm.wasm) has come
 * at FAST_NETWORK_BYTES_PER_MS or more, by its resource timing: its bytes on the wire over the
 * time from asking to its last byte. `globalThis.earlyNetwork` (for the tests): {bytesPerMs,
 * fast} once measured. Where a browser gives no such timing in a worker (or no size), the gate
 * waits for the runtime, as on a slow network. */
function openWhenFast(url) {
  if (typeof PerformanceObserver !== "function") return;
  const observer = new PerformanceObserver((list) => {
    const [entry] = list.getEntriesByName(url);
    if (!entry) return;
    observer.disconnect();
    const bytesPerMs = entry.encodedBodySize / (entry.responseEnd - entry.startTime);
    const fast = bytesPerMs >= FAST_NETWORK_BYTES_PER_MS; // false for NaN: no size, no time
    globalThis.earlyNetwork = { bytesPerMs, fast };
    if (fast) open("fast network");
  });
  try {
    observer.observe({ type: "resource", buffered: true });
  } catch {
    // no resource timing in this worker: the gate waits for the runtime
  }
}
