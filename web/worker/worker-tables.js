// The worker's tables (web/worker/worker.js uses them): every kind of table file the build lists
// in build.json's `kinds` (the registry py/yacht/core/table_kinds.py: each kind's field, parts,
// whether it is chunked, and when it is fetched: at "start" — each rule variant's table — or
// later, when an answer names it in a yacht.loader.Missing: a goal's spread table and chunks of R
// and of the law, the coach's files), put into the Python loader yacht.loader.Tables
// (Tables.add) as they arrive. This file names no kind and no file: build.json names every file
// with a content hash in its query; the service worker keeps those fetched after the start.

import { fetchBytes, here, LoadError, step } from "./worker-load.js";

/** The message of the Python exception that `error` carries (str(exc), without the traceback). */
export function pythonMessage(py, error) {
  if (error?.type === undefined) return String(error?.message ?? error);
  const exc = py.sys.last_exc;
  try {
    return exc ? exc.toString() : error.message;
  } finally {
    exc?.destroy();
  }
}

/** The loaders of one worker: `build` resolves to build.json, `python` to the package's handles
 * (`py`: builtins, pyodide, tables, sys). Each file is fetched once; one fetched after the start
 * that failed to load is asked for again by the next answer that needs it (a phone's network
 * comes back). */
export function tableLoaders(build, python) {
  /** variant -> Promise that resolves once its kinds fetched at start are in py.tables. */
  const starts = new Map();
  /** "kind/variant/part" -> Promise that resolves once that file is in py.tables. */
  const files = new Map();

  /** Decode `bytes` with `decode(py, data)` (Python), a failure as a LoadError of the table step.
   * The bytes cross as one buffer copy (toPy gives a memoryview, bytes() copies it): bytes() of the
   * Uint8Array itself would iterate over it, about 60 ms for the 224 kB table. */
  async function decodeInto(bytes, decode) {
    const py = await python;
    const view = py.pyodide.toPy(bytes);
    const data = py.builtins.bytes(view);
    view.destroy();
    try {
      decode(py, data);
    } catch (error) {
      throw new LoadError("table", pythonMessage(py, error));
    } finally {
      data.destroy();
    }
  }

  /** The bytes of file `part` (a chunked kind's mask, a kind of several files the file's part,
   * else "") of `kind` of `variant`; `name` is its file name (a chunk's, in its kind's folder). */
  async function fetchFile(kind, variant, part, name) {
    const b = await build;
    const k = b.kinds?.[kind];
    if (!k) throw new LoadError("table", `build.json lists no table kind ${kind}`);
    const e = b[k.field]?.[variant];
    if (!e) throw new LoadError("table", `build.json lists no ${kind} files for ${variant}`);
    if (k.parts.length && !Object.hasOwn(e, part))
      throw new LoadError("table", `build.json lists no ${kind} ${part} file for ${variant}`);
    const url = k.chunked ? `${e.url}${name}?h=${e.hash}` : k.parts.length ? e[part].url : e.url;
    return fetchBytes(here(url), "table");
  }

  /** Fetch file `part` of `kind` of `variant` now and put it into py.tables once the package is
   * ready; `retry`: forget a failure, so that it is fetched again when next asked for. */
  function loadFile(kind, variant, part, name, retry) {
    const key = `${kind}/${variant}/${part}`;
    if (!files.has(key)) {
      const bytes = fetchFile(kind, variant, part, name);
      bytes.catch(() => {});
      const loaded = (async () => {
        const data = await bytes;
        await decodeInto(data, (py, d) => py.tables.add(kind, variant, part, d));
      })();
      loaded.catch(() => retry && files.delete(key)); // else reported where it is awaited
      files.set(key, loaded);
    }
    return files.get(key);
  }

  /** The kinds of `variant` fetched at start (build.json's kinds whose fetch is "start": the
   * table), fetched at once and decoded as the "table" step once the package is ready. */
  function loadStart(variant) {
    if (!starts.has(variant)) {
      const loading = build.then((b) =>
        Object.entries(b.kinds)
          .filter(([, k]) => k.fetch === "start")
          .flatMap(([kind, k]) =>
            (k.parts.length ? k.parts : [""]).map((part) => loadFile(kind, variant, part, "", false)),
          ),
      );
      loading.catch(() => {});
      const loaded = (async () => {
        await python;
        await step("table", { variant }, async () => Promise.all(await loading));
      })();
      loaded.catch(() => {}); // reported where it is awaited
      starts.set(variant, loaded);
    }
    return starts.get(variant);
  }

  /** The files a yacht.loader.Missing named (`kinds`, `parts`, `names`: one item per file) of
   * `variant`, fetched in parallel: the kinds fetched at start as loadStart does. */
  async function loadMissing(variant, kinds, parts, names) {
    const b = await build;
    if (kinds.every((kind) => b.kinds?.[kind]?.fetch === "start")) return loadStart(variant);
    return Promise.all(kinds.map((kind, i) => loadFile(kind, variant, parts[i], names[i], true)));
  }

  return { starts, loadStart, loadMissing };
}
