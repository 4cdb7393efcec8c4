// The worker's tables (web/worker/worker.js uses them): every kind of table file the build lists
// in build.json's `kinds` (the registry py/yacht/core/table_kinds.py: each kind's field, parts,
// whether it is chunked, and when it is fetched: at "start" — each rule variant's table — or
// later, when an answer names it in a yacht.loader.Missing: a goal's spread table and chunks of R
// and of the law, the coach's files), put into the Python loader yacht.loader.Tables
// (Tables.add) as they arrive. The bytes come from table-source.js (fetched ahead, the offline
// pack, the network); a file that cannot be had now is lacking (table-lacking.js) and Python is
// told so, file by file (Tables.set_unavailable): an answer that reads it goes without it and
// says so, the others do not. This file names no kind and no file.

import { fetcherAhead } from "./table-ahead.js";
import { lackingFiles } from "./table-lacking.js";
import { fileKey, tableSource } from "./table-source.js";
import { LoadError, step } from "./worker-load.js";

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

/** How long an answer waits for a file fetched on demand (a goal's, the coach's) before it goes
 * without it (an estimate); the fetch goes on, and the page is told when it has arrived. */
export const EXTRA_WAIT_MS = 4000;

const delay = (ms) => new Promise((resolve) => setTimeout(() => resolve("slow"), ms));

/** The loaders of one worker: `build` resolves to build.json, `python` to the package's handles
 * (`py`: builtins, pyodide, tables, sys), `packs` is worker-pack.js's offlinePacks (or null).
 * `recovered(variant)` is called once files of a variant that answers went without have arrived
 * (the page then asks again for what it shows). */
export function tableLoaders(build, python, recovered = () => {}, packs = null) {
  const source = tableSource(build, packs);
  /** variant -> Promise that resolves once its kinds fetched at start are in py.tables. */
  const starts = new Map();
  /** key -> Promise that resolves once that file is in py.tables (a failure is forgotten). */
  const files = new Map();
  /** The keys of the files in py.tables. */
  const loaded = new Set();
  /** How many answers are fetching files of their own now (fetching ahead waits meanwhile). */
  let demand = 0;

  /** Decode `bytes` into py.tables (Tables.add), a refusal as a LoadError of the table step. The
   * bytes cross as one buffer copy (toPy gives a memoryview, bytes() copies it). */
  async function decodeInto(bytes, kind, variant, part) {
    const py = await python;
    const view = py.pyodide.toPy(bytes);
    const data = py.builtins.bytes(view);
    view.destroy();
    try {
      py.tables.add(kind, variant, part, data);
    } catch (error) {
      throw new LoadError("table", pythonMessage(py, error));
    } finally {
      data.destroy();
    }
  }

  /** Load `file` ({kind, variant, part, name}) into py.tables once (`network`: false to read it
   * only if fetched ahead or in the pack). Bytes that Python refuses are evicted (table-source.js:
   * fetched again past every cache); a failure is forgotten, so that a later call tries again. */
  function loadFile(file, { network = true } = {}) {
    const { kind, variant, part, name } = file;
    const key = fileKey(kind, variant, part);
    if (!files.has(key)) {
      const loading = (async () => {
        const bytes = await source.bytesOf(kind, variant, part, name, { network });
        try {
          await decodeInto(bytes, kind, variant, part);
        } catch (error) {
          await source.evict(kind, variant, part, name).catch(() => {});
          throw error;
        }
        loaded.add(key);
      })();
      loading.catch(() => files.delete(key)); // else reported where it is awaited
      files.set(key, loading);
    }
    return files.get(key);
  }

  /** Tell Python which files of `variant` answers go without now. */
  async function tellPython(variant) {
    const py = await python;
    const list = py.pyodide.toPy(lacking.of(variant));
    try {
      py.tables.set_unavailable(variant, list);
    } finally {
      list.destroy();
    }
  }

  const lacking = lackingFiles(loadFile, async (variant) => {
    await tellPython(variant);
    recovered(variant);
  });

  /** The files a yacht.loader.Missing named that are fetched on demand (a goal's, the coach's):
   * true once all are in py.tables; false when any could not be had now (it fails, it is lacking
   * and neither fetched ahead nor in the pack, or it takes longer than EXTRA_WAIT_MS): Python is
   * then told to go without those files, which are fetched again by themselves. */
  async function loadOrGoWithout(wanted) {
    demand += 1;
    const loads = wanted.map((f) => loadFile(f, { network: !lacking.has(fileKey(f.kind, f.variant, f.part)) }));
    const arrived = Promise.all(loads).then(
      () => "loaded",
      () => "failed",
    );
    const outcome = await Promise.race([arrived, delay(EXTRA_WAIT_MS)]);
    demand -= 1;
    if (outcome === "loaded") return true;
    for (const f of wanted) if (!loaded.has(fileKey(f.kind, f.variant, f.part))) lacking.add(f);
    await tellPython(wanted[0].variant);
    return false;
  }

  /** The kinds of `variant` fetched at start (build.json's kinds whose fetch is "start": the
   * table), fetched at once and decoded as the "table" step once the package is ready. */
  function loadStart(variant) {
    if (!starts.has(variant)) {
      const loading = build.then((b) =>
        Object.entries(b.kinds)
          .filter(([, k]) => k.fetch === "start")
          .flatMap(([kind, k]) =>
            (k.parts.length ? k.parts : [""]).map((part) => loadFile({ kind, variant, part, name: "" })),
          ),
      );
      loading.catch(() => {});
      const done = (async () => {
        await python;
        await step("table", { variant }, async () => Promise.all(await loading));
      })();
      done.catch(() => {}); // reported where it is awaited
      starts.set(variant, done);
    }
    return starts.get(variant);
  }

  /** The files a yacht.loader.Missing named (`kinds`, `parts`, `names`: one item per file) of
   * `variant`: the kinds fetched at start as loadStart does (essential: a failure is thrown),
   * the others loaded or gone without (loadOrGoWithout). */
  async function loadMissing(variant, kinds, parts, names) {
    const b = await build;
    if (kinds.every((kind) => b.kinds?.[kind]?.fetch === "start")) return loadStart(variant);
    return loadOrGoWithout(kinds.map((kind, i) => ({ kind, variant, part: parts[i], name: names[i] })));
  }

  /** Fetch (not decode) the files of one piece (not chunked) that goal answers read, of every
   * variant (build.json's kinds fetched for a "goal": the spread tables, about 155 kB each, and
   * the quantiles files, about 0.99 MB each), so
   * that the device holds them (the service worker keeps them): with no network, a goal's chance
   * can then still be estimated. */
  async function prefetchGoalFiles() {
    const b = await build;
    const kinds = Object.entries(b.kinds).filter(([, k]) => k.fetch === "goal" && !k.chunked);
    const fetches = kinds.flatMap(([kind, k]) =>
      Object.keys(b[k.field]).flatMap((variant) =>
        (k.parts.length ? k.parts : [""]).map((part) => source.bytesOf(kind, variant, part, "").catch(() => {})),
      ),
    );
    await Promise.all(fetches);
  }

  const skip = (key) => loaded.has(key) || lacking.has(key) || files.has(key);
  const ahead = fetcherAhead(python, source, skip, () => demand > 0, packs);

  return {
    starts,
    loadStart,
    loadMissing,
    /** The browser is online again (the page says so): the lacking files are fetched again now. */
    retryLacking: lacking.retryNow,
    /** The offline pack holds more now: the lacking files it holds are read from it at once. */
    packGrew: lacking.readPack,
    prefetchGoalFiles,
    fetchAheadOf: ahead.fetchAheadOf,
    setLookAhead: ahead.setLookAhead,
  };
}
