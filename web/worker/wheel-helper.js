// The page's worker's wheels (NumPy's and ours) fetched, checked and unpacked off its thread:
// by the wheel helper (wheel-worker.js, a worker of its own) while Python starts on this
// thread. fetchWheelAside is wheel-files.js's fetchWheel, run in the helper when it can start
// and here when it cannot (no nested workers, its script not loaded). The helper stops once it
// has nothing to do; a later call starts it again. `globalThis.wheelThreads` (for the tests): the
// thread that fetched and unpacked each wheel, by its file name: "helper" or "worker".

import { fetchWheel } from "./wheel-files.js";
import { fileOf, LoadError } from "./worker-load.js";

globalThis.wheelThreads = {};

let helper = null;
/** The calls the helper has not answered yet: id → resolve. */
const waiting = new Map();
let nextId = 0;

/** The helper, started if need be; null when it cannot be. Start it before Python starts: a
 * helper started while this thread is busy starting Python cannot load its script until that is
 * done (the parent loads a nested worker's script). */
export function startHelper() {
  if (helper) return helper;
  try {
    helper = new Worker(new URL("wheel-worker.js", import.meta.url), { type: "module", name: "wheels" });
  } catch {
    return null;
  }
  const started = helper;
  started.onmessage = ({ data }) => {
    const resolve = waiting.get(data.id);
    waiting.delete(data.id);
    if (!waiting.size) stop(started);
    resolve?.(data);
  };
  started.onerror = (event) => {
    event.preventDefault(); // a helper that did not start is not the page's error: the work is done here instead
    stop(started);
    const left = [...waiting.values()];
    waiting.clear();
    for (const resolve of left) resolve({ failed: true });
  };
  return started;
}

function stop(worker) {
  worker.terminate();
  if (helper === worker) helper = null;
}

/** fetchWheel(url, step, options) (wheel-files.js), run in the helper's thread when it can be. */
export async function fetchWheelAside(url, step, options = {}) {
  const here = () => {
    globalThis.wheelThreads[fileOf(url)] = "worker";
    return fetchWheel(url, step, options);
  };
  const worker = startHelper();
  if (!worker) return here();
  const id = nextId++;
  const answer = await new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({ id, url, step, options });
  });
  if (answer.failed) return here();
  globalThis.wheelThreads[fileOf(url)] = "helper";
  if (answer.error) throw new LoadError(answer.error.step, answer.error.message, answer.error.details);
  if (!answer.wheel) return null;
  const { files, unreadable, ...wheel } = answer.wheel;
  const members = files ? Promise.resolve(files) : Promise.reject(new Error(unreadable));
  members.catch(() => {}); // reported where it is awaited
  return { ...wheel, files: members };
}
