// The page's worker: Pyodide + NumPy + our package `yacht`, one table per rule variant (and
// the other table files an answer names, once it needs them: worker-tables.js).
//
// Started by the page at load as a module worker. Loading starts at once: the runtime (Pyodide,
// then NumPy), our wheel and the first table are fetched, the runtime's own files first on a fresh
// start over a slow network (runtimeFirst); the page is told how far it got with {type:
// "progress", step, state} messages.
//
// Protocol: the page posts {id, action, args}; the worker replies {id, result} or
// {id, error}. Actions: start, advise (a position query: yacht.api.advise_query), distribution
// (a position query: yacht.api.distribution_query, in steps; cancel {action} ends it early), game
// (a game record: yacht.api.game_query), review (a game record: yacht.api.review_query), grade
// (a practice record's last choice: yacht.api.grade_query), opponent (a practice game's
// simulated opponent: yacht.api.opponent_query), explain (a position query: the coach,
// yacht.api.explain_query), explainDecision (a game record and a decision's index: the coach on
// that decision, yacht.api.explain_decision_query), time (for the benchmark). Errors are plain objects:
//   {kind: "position", field, message}  a bad position or game record (yacht.core.position.
//                                        PositionError, or its subclass yacht.play.game.GameError;
//                                        yacht.core.position.GoalUnavailable; the message is the CLI's)
//   {kind: "load", step, message, details}  something the worker needs did not load (a
//                                        table of another variant than asked for included);
//                                        message names the file, details is the runtime's
//                                        own text (may be empty)
//   {kind: "unavailable", message}      a file fetched on demand that this answer cannot go
//                                        without (the coach's) could not be fetched now; it is
//                                        fetched again by itself (files a goal reads are gone
//                                        without instead: the answer's "estimate" says so)
//   {kind: "cancelled", message}        a stepped answer (distribution) ended early: a newer one
//                                        was asked for, or the page sent cancel
//   {kind: "internal", message}         anything else (a bug)
// Besides answers, the worker posts {type: "progress", step, state} while loading and
// {type: "recovered", variant} when files answers went without have arrived (from the network
// or the offline pack: the page then asks again for what it shows); the page posts retryTables
// when the browser is online again.
//
// This file holds no Python source: it imports the package and calls its functions.

import "./lifetime.js"; // first: the page can tell when this worker has ended
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { RUNTIME } from "./runtime.js";
import { receiveSnapshotNews, takeSnapshot } from "./snapshot.js";
import { startFromSnapshot } from "./snapshot-start.js";
import { restoreFinished } from "./snapshot-state.js";
import { answering } from "./worker-answer.js";
import { altered, alteredStdlib } from "./worker-check.js";
import { fetchJSON } from "./worker-fetch.js";
import {
  earlyRuntimeFiles,
  failingOnWasmErrors,
  fileOf,
  here,
  LoadError,
  pyodideOptions,
  runtimeFirst,
  runtimeIn,
  step,
} from "./worker-load.js";
import { fetchWheel, sitePackages, writeFiles } from "./wheel-files.js";
import { fetchNumpyWheel, loadNumpy } from "./worker-numpy.js";
import { offlinePacks } from "./worker-pack.js";
import { tableLoaders } from "./worker-tables.js";

// Everything below starts when the worker starts ----------------------------------------

const runtimeFiles = earlyRuntimeFiles(); // fetched now, handed to loadPyodide (worker-load.js)

/** build.json names our wheel and the tables (the page's build writes it). */
const build = fetchJSON(here("build.json"), "package");
build.catch(() => {}); // reported where it is awaited

/** Our wheel, fetched and unpacked once runtimeFirst opens (the runtime is in, or the network
 * is fast): {bytes, files} (wheel-files.js: fetchWheel). */
const wheel = build.then((b) => runtimeFirst.then(() => fetchWheel(here(b.wheel.url), "package")));
wheel.catch(() => {});
/** Our wheel's files, one promise with its handler attached (the package step writes them; a
 * snapshot start too: snapshot-packages.js). A promise derived from `wheel` at each use would
 * reject with no handler while its user awaits something else: an unhandled rejection. */
const unpackedPackage = wheel.then((w) => w.files);
unpackedPackage.catch(() => {}); // reported where it is awaited

/** How long after the first table has loaded a fresh start begins taking the warm start's
 * snapshot in a worker of its own (snapshot-worker.js: takeSnapshot), and the spread tables and
 * quantiles files are fetched (prefetchGoalFiles). */
const SNAPSHOT_DELAY_MS = 2000;

/** Pyodide started afresh (the snapshot a later visit starts from is taken after the first
 * answer: takeSnapshot). NumPy's wheel is fetched at low priority once pyodide.asm.wasm is in
 * (runtimeFirst, opened by startPyodide's inFirst, or sooner on a fast network), and handed
 * over once Python runs. */
async function startFresh() {
  runtimeFirst.then(() => fetchNumpyWheel("low")).catch(() => {});
  let pyodide;
  try {
    pyodide = await loadPyodide(pyodideOptions);
  } catch (error) {
    throw (await altered("runtime", pyodideOptions.stdLibURL, RUNTIME.stdLibSha256)) ?? error;
  } finally {
    runtimeIn();
  }
  globalThis.runtimeStart ??= "fresh";
  return pyodide;
}

/** Pyodide on the trimmed runtime, from the snapshot or afresh (`globalThis.runtimeStart` says
 * which, for the tests and the benchmark). The standard library is checked against the build's
 * sha256 once in place (or, when Python could not start, fetched again to tell a damaged file
 * from other failures); NumPy comes from our lock file, whose sha256 loadPackage checks. */
async function startPyodide() {
  const inFirst = (file) => file === "pyodide.asm.wasm" && runtimeIn(); // before Python starts
  const pyodide = await runtimeFiles.serving(
    async () =>
      (await startFromSnapshot(unpackedPackage)) ?? (await failingOnWasmErrors("runtime", startFresh, inFirst)),
  );
  const refused = await alteredStdlib(pyodide);
  if (refused) throw refused;
  globalThis.pyodide = pyodide; // for tools/record_imports.py and the browser tests (Playwright evaluates here)
  return pyodide;
}

/** The runtime with NumPy imported. */
const runtime = (async () => {
  const pyodide = await step("runtime", {}, startPyodide);
  await step("numpy", {}, async () =>
    globalThis.packagesRestored || failingOnWasmErrors("numpy", () =>
      loadNumpy(pyodide).catch(async (error) => {
        // loadPackage refuses a wheel whose sha256 is not our lock file's, saying only "Failed to fetch"
        throw (await altered("numpy", here(RUNTIME.numpyURL), RUNTIME.numpySha256)) ?? error;
      }),
    ),
  );
  return pyodide;
})();

/** The installed package: the modules the actions call and the dict of decoded tables. */
const python = (async () => {
  const pyodide = await runtime;
  return step("package", {}, async () => {
    const { files } = await wheel;
    const file = fileOf((await build).wheel.url);
    if (!globalThis.packagesRestored) {
      let members;
      try {
        members = await files;
      } catch (error) {
        throw new LoadError("package", `${file}: not a readable wheel`, String(error?.message ?? error));
      }
      const site = sitePackages(pyodide);
      if (!site) throw new LoadError("package", `${file}: no site-packages on Python's path`);
      writeFiles(pyodide, members, site);
      // site-packages was listed when NumPy was imported: its finder alone lists it again
      // (importlib.invalidate_caches() would also read the standard library's zip again: 0.1 s)
      pyodide.runPython(`import sys\nif (f := sys.path_importer_cache.get("${site}")): f.invalidate_caches()`);
    }
    let api;
    try {
      api = pyodide.pyimport("yacht.api");
    } catch (error) {
      throw new LoadError("package", `${file}: the package did not import`, String(error?.message ?? error));
    }
    return {
      pyodide,
      api,
      PositionError: pyodide.pyimport("yacht.core.position").PositionError,
      Missing: pyodide.pyimport("yacht.loader").Missing,
      GoalUnavailable: pyodide.pyimport("yacht.core.position").GoalUnavailable,
      builtins: pyodide.pyimport("builtins"),
      sys: pyodide.pyimport("sys"),
      tables: pyodide.pyimport("yacht.api").Tables(), // yacht.loader.Tables, filled by Tables.add
    };
  });
})();
python.catch(() => {});
// The warm start of later visits: on a fresh start, once the first table has loaded (the first
// answer follows at once), a worker of its own takes the snapshot (snapshot-worker.js), so that
// neither its imports nor its copy come before the first advice.
const firstAnswered = python
  .then(() => Promise.all(starts.values()))
  .then(() => new Promise((resolve) => setTimeout(resolve, SNAPSHOT_DELAY_MS)));
firstAnswered.finally(restoreFinished).catch(() => {}); // a restore's begun mark (snapshot-state.js)
firstAnswered.then(() => globalThis.runtimeStart.startsWith("fresh") && takeSnapshot()).catch(() => {});
// After the first answer, the files a goal's estimate needs without network (prefetchGoalFiles).
globalThis.goalFilesFetched = firstAnswered.then(() => prefetchGoalFiles()).catch(() => {}); // tests await it

/** Files fetched on demand that answers went without have arrived for `variant`: the page asks
 * again for what it shows. */
const recovered = (variant) => postMessage({ type: "recovered", variant });

/** The offline packs (worker-pack.js): their news goes to the page as it comes; once more of a
 * pack is kept, the files answers went without are read from it at once (tables.packGrew). */
const packs = offlinePacks(build, postMessage, () => tables.packGrew());

const tables = tableLoaders(build, python, recovered, packs);
const { starts, loadStart, loadMissing, prefetchGoalFiles, fetchAheadOf, setLookAhead } = tables;
globalThis.setLookAhead = setLookAhead; // for bench/bench_rival_wait.py: fetching ahead off, to compare

const { answer, answerInSteps, cancelSteps } = answering(python, loadMissing);

/** The runtime, the package and the first table: the table of `variant` when build.json lists it
 * (else the default variant's). */
async function start({ variant }) {
  const b = await build.catch((error) => {
    throw new LoadError("package", error.message);
  });
  const atStart = Object.values(b.kinds).filter((k) => k.fetch === "start");
  const known = typeof variant === "string" && atStart.every((k) => Object.hasOwn(b[k.field], variant));
  const first = known ? variant : b.default_variant;
  runtimeFirst.then(() => loadStart(first)).catch(() => {}); // fetched once runtimeFirst opens
  const py = await python;
  await loadStart(first);
  return { pyodide: py.pyodide.version, variant: first, runtimeStart: globalThis.runtimeStart };
}

/** The advice of one position query: yacht.api.advise_query's dict; the chunks ahead fetched after. */
async function advise(query) {
  const result = await answer("advise_query", query);
  if ("exact" in result) fetchAheadOf(query, false).catch(() => {}); // a goal's answer
  return result;
}

/** Settles once the start action is done (or failed): an advice asked for before then (the page
 * asks for the first one at once) waits for it, so that Python is not called before the first
 * table is in (the call would only find it missing, and delay loading it). */
let started = Promise.resolve();

const actions = {
  /** Resolves when the runtime, the package and the table of `variant` are ready. */
  start(args) {
    const starting = start(args);
    started = starting.catch(() => {});
    return starting;
  },

  /** The advice of a position query (advise), once the start action is done. */
  async advise({ query }) {
    await started;
    return advise(query);
  },

  /** The final-score distribution of a position: yacht.api.distribution_query's dict, computed in
   * steps (yacht.api.distribution_query_steps: answerInSteps). */
  distribution({ query }) {
    return answerInSteps("distribution", "distribution_query_steps", query);
  },

  /** End the stepped answer of `action` still running (answerInSteps), as a newer one is wanted. */
  cancel({ action }) {
    cancelSteps(action);
    return {};
  },

  /** Where a game record stands: yacht.api.game_query's dict (canonical query, position, advice);
   * with a goal, the chunks ahead fetched after. */
  async game({ query }) {
    await started;
    const result = await answer("game_query", query);
    fetchAheadOf(query, true).catch(() => {});
    return result;
  },

  /** Every decision of a game record graded: yacht.api.review_query's dict. */
  review({ query }) {
    return answer("review_query", query);
  },

  /** A practice game's last choice graded as the review grades it: yacht.api.grade_query's dict. */
  grade({ query }) {
    return answer("grade_query", query);
  },

  /** A practice game's simulated opponent, its twelve turns: yacht.api.opponent_query's dict. */
  opponent({ query }) {
    return answer("opponent_query", query);
  },

  /** The coach's explanation of every option of a position: yacht.api.explain_query's dict (the
   * coach's files, .bonus and .points, are fetched when it is first asked for). */
  explain({ query }) {
    return answer("explain_query", query);
  },

  /** The coach's explanation of decision `index` of a game record (the best against the choice):
   * yacht.api.explain_decision_query's dict (the coach's files fetched as for explain). */
  explainDecision({ query, index }) {
    if (!Number.isInteger(index)) throw { kind: "internal", message: `explainDecision: no decision index ${index}` };
    return answer("explain_decision_query", query, index);
  },

  /** How the offline pack of `variant` stands: {variant, state, received, total}. */
  packStatus({ variant }) {
    return packs.status(variant);
  },

  /** Download the offline pack of `variant` (resolves when done, failed or cancelled; news meanwhile). */
  packDownload({ variant }) {
    return packs.download(variant);
  },

  /** Stop the download of `variant`'s pack (what is kept stays). */
  packCancel({ variant }) {
    packs.cancel(variant);
    return {};
  },

  /** The browser is online again: the files answers went without are fetched again now. */
  retryTables() {
    tables.retryLacking();
    packs.resumeEvicted();
    return {};
  },

  /** For the benchmark: milliseconds of each of `repeat` advices of `query`, as the page gets them. */
  async time({ query, repeat }) {
    await advise(query);
    const times = [];
    for (let i = 0; i < repeat; i++) {
      const start = performance.now();
      await advise(query);
      times.push(performance.now() - start);
    }
    return { times };
  },
};

function asError(error) {
  if (error instanceof LoadError) return { kind: "load", step: error.step, message: error.message, details: error.details };
  if (error && typeof error === "object" && "kind" in error) return error;
  return { kind: "internal", message: String(error?.message ?? error) };
}

onmessage = async ({ data: { id, action, args, snapshot } }) => {
  if (snapshot) return receiveSnapshotNews(snapshot); // what snapshot-worker.js said, relayed by the page
  try {
    if (!Object.hasOwn(actions, action)) throw { kind: "internal", message: `unknown action ${action}` };
    postMessage({ id, result: await actions[action](args ?? {}) });
  } catch (error) {
    postMessage({ id, error: asError(error) });
  }
};
