// The worker's loading helpers (web/worker/worker.js imports them): a failure to load one step as a
// LoadError naming the file, progress messages to the page, fetching, the guard that turns a
// WebAssembly module that fails to compile into a LoadError, and the check of a runtime file's
// sha256 against the one the build published; loadPyodide's options (pyodideOptions) and the
// check of the started runtime's standard library (alteredStdlib), shared with snapshot-worker.js.

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

export async function fetchOk(url, stepName) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new LoadError(stepName, `${url}: ${error.message}`);
  }
  if (!response.ok) {
    throw new LoadError(stepName, `${url}: HTTP ${response.status} ${response.statusText}`.trim());
  }
  return response;
}

export async function fetchBytes(url, stepName) {
  return new Uint8Array(await (await fetchOk(url, stepName)).arrayBuffer());
}

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

/** The SHA-256 of `bytes`, in hex. */
export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A LoadError of `stepName` when the runtime file at `url` (`bytes`: as received; else fetched
 * again) is not the one the build published, else null (also when it cannot be fetched again:
 * then the failure is not the file's bytes). */
export async function altered(stepName, url, expected, bytes) {
  try {
    bytes ??= await fetchBytes(url, stepName);
  } catch {
    return null;
  }
  const actual = await sha256(bytes);
  if (actual === expected) return null;
  const why = `sha256 ${actual}, but the build published ${expected}`;
  return new LoadError(stepName, `${fileOf(url)}: damaged or substituted, refused`, why);
}

/** loadPyodide's options: the site's trimmed runtime (runtime.js, written by tools/build_site.py). */
export const pyodideOptions = {
  indexURL: here(RUNTIME.indexURL),
  stdLibURL: here(RUNTIME.stdLibURL),
  lockFileURL: here(RUNTIME.lockFileURL),
};

/** The LoadError of a started Pyodide whose standard library is not this build's (sha256), or null. */
export async function alteredStdlib(pyodide) {
  const zip = pyodide.FS.readdir("/lib").find((name) => /^python\d+\.zip$/.test(name));
  return altered("runtime", pyodideOptions.stdLibURL, RUNTIME.stdLibSha256, pyodide.FS.readFile(`/lib/${zip}`));
}

// The runtime's files first ---------------------------------------------------------------------

let openRuntimeFirst;
/** Resolves once a fresh start's runtime is in (pyodide.asm.wasm: 3.2 MB, compiled before Python
 * can start), at once on a snapshot start (the runtime then comes from the cache). What is needed
 * only once Python runs (NumPy's wheel, our wheel, the first table: 1.5 MB) is fetched after it,
 * so that the runtime has the network to itself and Python starts about 2 s sooner on a phone's
 * network (docs/benchmarks.md: a phone's CPU). */
export const runtimeFirst = new Promise((resolve) => {
  openRuntimeFirst = resolve;
});

/** Open runtimeFirst (the runtime's WebAssembly is in, or no longer awaited). */
export const runtimeIn = () => openRuntimeFirst();
