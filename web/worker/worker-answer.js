// Answers from Python: a call into yacht.api made a plain object, its errors made the worker's
// ({kind: "position"}, {kind: "internal"}, a file it asked for and did not find loaded and the call
// made again), and the long ones (a chart) run in steps with other messages answered between them.

import { pythonMessage } from "./worker-tables.js";

/** What yacht.api asked for and did not find (a yacht.loader.Missing: TableMissing,
 * SpreadMissing, ReachMissing or CoachMissing): `key` names it, `load()` loads it. */
class Missing {
  constructor(key, load) {
    this.key = key;
    this.load = load;
  }
}

/** A Python dict (or list) as a plain JavaScript value; the proxy is destroyed. */
function plain(proxy) {
  try {
    return proxy.toJs({ dict_converter: Object.fromEntries });
  } finally {
    proxy.destroy();
  }
}

/** Resolves once the messages that came before it have been handled: a message to itself, which
 * waits its turn behind them (timers would be clamped to 4 ms). */
function turnToMessages() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The answers of `python` (the worker's package: the modules, the tables), loading what it asks
 * for with `loadMissing(variant, kinds, parts, names)` (worker-tables.js). */
export function answering(python, loadMissing) {
  /** The ticket of the stepped answer running for each action (answerInSteps): a newer one, or the
   * page's cancel, marks it cancelled. */
  const stepping = new Map();

  /** The Missing of a Python exception `exc` that is one (a yacht.loader.Missing: its files'
   * kinds, parts and names), else null. */
  function missing(py, exc) {
    if (!py.builtins.isinstance(exc, py.Missing)) return null;
    const variant = exc.variant;
    const proxies = [exc.kinds, exc.parts, exc.names];
    const [kinds, parts, names] = proxies.map((list) => list.toJs());
    proxies.forEach((list) => list.destroy());
    const lacking = new Missing(`${variant} ${kinds} ${parts}`, () => loadMissing(variant, kinds, parts, names));
    lacking.message = `${names.join(", ")}: could not be fetched now (fetched again by itself)`;
    return lacking;
  }

  /** Call into Python; a PositionError (or a subclass: GameError) or a GoalUnavailable becomes
   * {kind: "position", field, message}, a yacht.loader.Missing a Missing. */
  function callPython(py, call) {
    try {
      return call();
    } catch (error) {
      if (error?.type !== undefined) {
        const exc = py.sys.last_exc;
        try {
          if (
            exc &&
            (py.builtins.isinstance(exc, py.PositionError) || py.builtins.isinstance(exc, py.GoalUnavailable))
          ) {
            const legal = exc.legal?.to_json(); // a game record's legal part (yacht.play.game.LegalStart)
            throw {
              kind: "position",
              field: exc.field,
              message: exc.toString(),
              ...(legal && { legal: plain(legal) }),
            };
          }
          const lacking = exc && missing(py, exc);
          if (lacking) throw lacking;
        } finally {
          exc?.destroy();
        }
      }
      throw { kind: "internal", message: pythonMessage(py, error) };
    }
  }

  /** yacht.api.<name>(query, tables, ...more) as a plain object (answered). */
  function answer(name, query, ...more) {
    return answered((py) => callPython(py, () => plain(py.api[name](query, py.tables, ...more))));
  }

  /** yacht.api.<name>(query, tables), a generator of steps (yacht.core.steps), run one step at a
   * time: between two steps the worker answers the messages that came meanwhile, so that the advice
   * of a new position waits for one step of a chart (a few tenths of a second at most), never for
   * the whole of it. A newer request of the same `action`, or the page's cancel, ends it at its next
   * step with a {kind: "cancelled"} error. */
  function answerInSteps(action, name, query) {
    const ticket = { cancelled: false };
    if (stepping.has(action)) stepping.get(action).cancelled = true;
    stepping.set(action, ticket);
    const run = async (py) => {
      const steps = callPython(py, () => py.api[name](query, py.tables));
      try {
        for (;;) {
          const step = callPython(py, () => steps.next());
          if (step.done) return plain(step.value);
          await turnToMessages();
          if (ticket.cancelled) throw { kind: "cancelled", message: `${action}: a newer one was asked for` };
        }
      } finally {
        steps.destroy();
      }
    };
    return answered(run).finally(() => stepping.get(action) === ticket && stepping.delete(action));
  }

  /** `run(py)`'s answer. The query is parsed once, in Python: when the variant it asks for has no
   * table loaded yet, or the goal needs a spread table not loaded yet, that file is loaded and
   * `run` called again. */
  async function answered(run) {
    const py = await python;
    const loaded = new Set();
    const without = new Set();
    for (;;) {
      try {
        return await run(py);
      } catch (error) {
        if (!(error instanceof Missing)) throw error;
        // A file that could not be had now and that this answer cannot go without (the coach's):
        // said where the answer is shown (with Retry), never the page's failure.
        if (without.has(error.key)) throw { kind: "unavailable", message: error.message };
        // The table, the spread table, the reach chunks: each once; still missing once loaded is a bug.
        if (loaded.has(error.key)) throw { kind: "internal", message: `still missing once loaded: ${error.key}` };
        loaded.add(error.key);
        // The rules' table is essential (its failure is the page's); the other files an answer goes
        // without when they cannot be had now (false: Python then says so in its "estimate").
        if ((await error.load()) === false) without.add(error.key);
      }
    }
  }

  /** End the stepped answer of `action` still running at its next step. */
  function cancelSteps(action) {
    if (stepping.has(action)) stepping.get(action).cancelled = true;
  }

  return { answer, answerInSteps, cancelSteps };
}
