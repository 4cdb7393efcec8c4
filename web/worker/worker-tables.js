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

/** How long an answer waits for a file fetched on demand (a goal's, the coach's) before it goes
 * without it (an estimate); the fetch goes on, and the page is told when it has arrived. */
export const EXTRA_WAIT_MS = 4000;

/** The delays between fetches again of the files answers went without: doubling from the first,
 * at most the last; the page's "online" (retryTables) starts again from the first. */
const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 60_000;

/** How many chunks are fetched ahead at once, and how many fetched ahead are kept (about 3.5 kB
 * each) until an answer reads them. */
const AHEAD_AT_ONCE = 6;
const AHEAD_MOST = 1500;

const delay = (ms) => new Promise((resolve) => setTimeout(() => resolve("slow"), ms));

/** The loaders of one worker: `build` resolves to build.json, `python` to the package's handles
 * (`py`: builtins, pyodide, tables, sys). Each file is fetched once; one fetched after the start
 * that failed to load (or took longer than EXTRA_WAIT_MS) is "lacking": answers go without it
 * (yacht.loader.Tables.set_unavailable: its kind), it is fetched again with backoff, and
 * `recovered(variant)` is called once a kind of a variant has no file lacking any more. A file
 * the offline pack holds (`packs`: worker-pack.js) is read from it, not fetched. */
export function tableLoaders(build, python, recovered = () => {}, packs = null) {
  /** variant -> Promise that resolves once its kinds fetched at start are in py.tables. */
  const starts = new Map();
  /** "kind/variant/part" -> Promise that resolves once that file is in py.tables. */
  const files = new Map();
  /** "kind/variant/part" of the files in py.tables. */
  const loaded = new Set();
  /** "kind/variant/part" -> {kind, variant, part, name}: the files answers go without for now. */
  const lacking = new Map();
  let attempt = 0;
  let timer = null;
  /** "kind/variant/part" -> Promise of the bytes fetched ahead (fetchAhead), until read; what is
   * still to fetch ahead ([key, kind, mask, url], soonest first); whether that is under way; how
   * many answers are fetching files of their own now (fetching ahead waits meanwhile). */
  const ahead = new Map();
  const aheadList = [];
  let aheadRunning = false;
  let demand = 0;

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
    const early = ahead.get(`${kind}/${variant}/${part}`);
    if (early) {
      ahead.delete(`${kind}/${variant}/${part}`);
      const bytes = await early.catch(() => null);
      if (bytes) return bytes;
    }
    const packed = k.fetch === "start" ? null : await packs?.bytesOf(kind, variant, part);
    if (packed) return packed;
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
      const loading = (async () => {
        const data = await bytes;
        await decodeInto(data, (py, d) => py.tables.add(kind, variant, part, d));
        loaded.add(key);
      })();
      loading.catch(() => retry && files.delete(key)); // else reported where it is awaited
      files.set(key, loading);
    }
    return files.get(key);
  }

  /** The kinds of `variant` with a file lacking. */
  const lackingKinds = (variant) =>
    [...new Set([...lacking.values()].filter((f) => f.variant === variant).map((f) => f.kind))].sort();

  /** Tell Python which kinds of `variant` answers go without now. */
  async function tellPython(variant) {
    const py = await python;
    const kinds = py.pyodide.toPy(lackingKinds(variant));
    try {
      py.tables.set_unavailable(variant, kinds);
    } finally {
      kinds.destroy();
    }
  }

  /** Fetch the lacking files again; those that arrive are no longer lacking (the page is told
   * per variant and kind); while some still lack, again later, each delay twice the one before. */
  async function fetchAgain() {
    timer = null;
    const before = new Map([...new Set([...lacking.values()].map((f) => f.variant))].map((v) => [v, lackingKinds(v)]));
    const tries = [...lacking.entries()].map(([key, f]) =>
      loadFile(f.kind, f.variant, f.part, f.name, true).then(
        () => lacking.delete(key),
        () => {},
      ),
    );
    await Promise.race([Promise.all(tries), delay(EXTRA_WAIT_MS)]);
    for (const [variant, kinds] of before) {
      const now = lackingKinds(variant);
      if (now.length === kinds.length) continue;
      await tellPython(variant);
      recovered(variant, now);
    }
    if (lacking.size) {
      attempt += 1;
      scheduleFetchAgain();
    } else attempt = 0;
  }

  function scheduleFetchAgain(now = false) {
    if (timer !== null) clearTimeout(timer);
    const wait = now ? 0 : Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** attempt);
    timer = setTimeout(fetchAgain, wait);
  }

  /** The browser is online again (the page says so): fetch the lacking files now. */
  function retryLacking() {
    attempt = 0;
    if (lacking.size) scheduleFetchAgain(true);
  }

  /** The files a yacht.loader.Missing named that are fetched on demand (a goal's, the coach's):
   * fetched, and true once all are in py.tables; false when any is lacking (it failed before and
   * is being fetched again, it fails now, or it takes longer than EXTRA_WAIT_MS): Python is then
   * told to go without its kind, and the files are fetched again with backoff. */
  async function loadOrGoWithout(variant, kinds, parts, names) {
    const wanted = kinds.map((kind, i) => ({ kind, variant, part: parts[i], name: names[i] }));
    const key = (f) => `${f.kind}/${f.variant}/${f.part}`;
    if (!wanted.some((f) => lacking.has(key(f)))) {
      const loading = Promise.all(wanted.map((f) => loadFile(f.kind, variant, f.part, f.name, true)));
      loading.catch(() => {});
      demand += 1;
      const arrived = loading.then(
        () => "loaded",
        () => "failed",
      );
      const outcome = await Promise.race([arrived, delay(EXTRA_WAIT_MS)]);
      demand -= 1;
      if (outcome === "loaded") return true;
    }
    for (const f of wanted) if (!loaded.has(key(f))) lacking.set(key(f), f);
    await tellPython(variant);
    if (timer === null) scheduleFetchAgain();
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
   * `variant`: the kinds fetched at start as loadStart does (essential: a failure is thrown),
   * the others fetched in parallel or gone without (loadOrGoWithout). */
  async function loadMissing(variant, kinds, parts, names) {
    const b = await build;
    if (kinds.every((kind) => b.kinds?.[kind]?.fetch === "start")) return loadStart(variant);
    return loadOrGoWithout(variant, kinds, parts, names);
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
        (k.parts.length ? k.parts : [""]).map((part) => fetchFile(kind, variant, part, "").catch(() => {})),
      ),
    );
    await Promise.all(fetches);
  }

  /** Fetch ahead (the bytes only: decoded when an answer asks for them) the chunks of `variant`
   * that the next decisions can read (`wanted`: [quantity, mask, file name], soonest first:
   * yacht.api.chunks_ahead_query), but those in py.tables, lacking, or in a kept part of the
   * offline pack; a later call's list replaces what this one has not started; AHEAD_AT_ONCE at a
   * time, at low priority, none started while an answer fetches files of its own; at most
   * AHEAD_MOST kept. */
  async function fetchAhead(variant, wanted) {
    const b = await build;
    const todo = [];
    for (const [kind, mask, name] of wanted) {
      const key = `${kind}/${variant}/${mask}`;
      if (loaded.has(key) || lacking.has(key) || ahead.has(key) || files.has(key)) continue;
      const entry = b[b.kinds[kind].field][variant];
      todo.push([key, kind, mask, `${entry.url}${name}?h=${entry.hash}`]);
    }
    if (todo.length && (await packs?.bytesOf(todo[0][1], variant, todo[0][2]))) return; // the pack has them
    aheadList.splice(0, aheadList.length, ...todo);
    if (aheadRunning) return;
    aheadRunning = true;
    const next = async () => {
      for (let item = aheadList.shift(); item; item = aheadList.shift()) {
        while (demand > 0) await delay(50);
        const [key, , , url] = item;
        const bytes = fetch(here(url), { priority: "low" }).then(async (response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return new Uint8Array(await response.arrayBuffer());
        });
        ahead.set(key, bytes);
        await bytes.catch(() => ahead.delete(key));
        while (ahead.size > AHEAD_MOST) ahead.delete(ahead.keys().next().value);
      }
    };
    try {
      await Promise.all(Array.from({ length: AHEAD_AT_ONCE }, next));
    } finally {
      aheadRunning = false;
    }
  }

  /** Whether answers are followed by fetching ahead (the benchmark turns it off to compare). */
  let lookAhead = true;
  const setLookAhead = (on) => (lookAhead = on);

  /** After a goal's answer, once the worker is idle: the chunks the next decisions can read
   * (yacht.api.chunks_ahead_query of the position, or of the game record: `game`) fetched ahead. */
  async function fetchAheadOf(query, game) {
    if (!lookAhead || !navigator.onLine) return; // offline: nothing to fetch ahead from
    await new Promise((resolve) => setTimeout(resolve, 0));
    const py = await python;
    let found;
    try {
      const result = py.api.chunks_ahead_query(query, game);
      found = result.toJs({ dict_converter: Object.fromEntries });
      result.destroy();
    } catch {
      return; // a query an answer refused: nothing ahead
    }
    await fetchAhead(found.variant, found.chunks);
  }

  return { starts, loadStart, loadMissing, retryLacking, prefetchGoalFiles, fetchAheadOf, setLookAhead };
}
