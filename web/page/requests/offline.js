// Offline: the service worker ------------------------------------------------------------------

import { store, update } from "../state/store.js";
import { endWorker } from "./requests.js";

export let swRegistered = false;
export let updating = false;

/** Register sw.js (once the worker has loaded, so its downloads do not slow the first load).
 * "Offline ready" when the first worker takes over this page; "Update available"
 * when a new version waits; its Reload button lets it take over and reloads the page. */
export async function registerServiceWorker() {
  if (swRegistered || !("serviceWorker" in navigator)) return;
  swRegistered = true;
  const container = navigator.serviceWorker;
  const hadController = container.controller !== null;
  let registration;
  try {
    registration = await container.register("sw.js", { scope: "./", updateViaCache: "none" });
  } catch (error) {
    console.warn("The page works online only: no service worker.", error);
    return;
  }
  if (!registration) return; // registration refused without an error (e.g. by a test harness)
  const watch = (worker) => {
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && container.controller) showAppNote("update", registration);
      if (worker.state === "activated" && !hadController) showAppNote("offline");
    });
  };
  if (registration.waiting && container.controller) showAppNote("update", registration);
  watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  // A new version took over (here, or in another tab of the page): reload, so that the page
  // never runs against another version's files. The first worker's takeover is not a change.
  container.addEventListener("controllerchange", () => {
    if (updating || hadController) location.reload();
    else primeRuntimeCode();
  });
}

/** The runtime's WebAssembly, relative to the page (runtime.js's indexURL, tools/build_site.py). */
const RUNTIME_WASM = "pyodide/pyodide.asm.wasm";

/** Once the first service worker controls the page, compile the runtime's WebAssembly through it
 * once, in the background. Chromium keeps compiled code beside the service worker's copy of a
 * Response only after its second compile, and the worker's own compile on the first visit came
 * from the network: primed, the next visit's worker finds the interpreter compiled
 * (docs/benchmarks.md). It waits for the first advice, so that the first visit never compiles
 * the runtime twice before it answers. Only Chromium keeps code this way, so only Chromium (its brand in
 * navigator.userAgentData, which Firefox and Safari lack) spends the compile; elsewhere
 * html[data-runtime-code] stays unset. A failure only means the next visit compiles as before. */
async function primeRuntimeCode() {
  if (!navigator.userAgentData?.brands?.some(({ brand }) => brand === "Chromium")) return;
  const html = document.documentElement;
  html.dataset.runtimeCode = "priming"; // for the benchmark: a second visit waits for "primed"
  await firstAdviceShown(); // the first visit's own compile and answer come first
  try {
    performance.mark("yacht:runtime-code:start");
    await WebAssembly.compileStreaming(fetch(RUNTIME_WASM, { priority: "low" }));
    performance.mark("yacht:runtime-code:done");
    html.dataset.runtimeCode = "primed";
  } catch (error) {
    html.dataset.runtimeCode = "failed";
    console.warn("The runtime's code was not compiled ahead; the next visit compiles it.", error);
  }
}

/** Resolves once the page has shown its first advice (requests.js marks "yacht:first-advice"). */
function firstAdviceShown() {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName("yacht:first-advice").length) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: "mark", buffered: true });
  });
}

/** How long "Offline ready" stays in the title's place (ms). */
const OFFLINE_NOTE_MS = 6000;

let timer = null;

/** The note in the title's place: {kind: "offline" | "update"}. "offline" goes by itself;
 * "update" stays until its Reload is pressed (the page works on meanwhile). */
export function showAppNote(kind, registration = null) {
  clearTimeout(timer);
  update("appNote", (s) => (s.appNote = { kind, registration }));
  if (kind === "offline") timer = setTimeout(() => update("appNote", (s) => (s.appNote = null)), OFFLINE_NOTE_MS);
}

/** Reload: the waiting version takes over, then the page reloads (on controllerchange). The new
 * version becomes active only once the old service worker has stopped, and a fetch reaching it as
 * it stops starts it again: Chromium then waits for it to be idle for its timeout (30 s; 5 minutes
 * with DevTools attached) before the takeover. So the new version is told to take over only once
 * our workers have ended (requests.js: endWorker; their fetches come at any moment: a goal's
 * files, the snapshot's worker starting Pyodide) and the old service worker has had no request
 * for a moment (sw.js: quiet), none of theirs still on its way. Pressed again meanwhile, Reload
 * reloads the page as it stands. */
export async function reloadForUpdate() {
  const waiting = store.appNote?.registration?.waiting;
  if (!waiting || updating) return location.reload();
  updating = true;
  await endWorker();
  await serviceWorkerQuiet();
  waiting.postMessage({ type: "skip-waiting" });
}

/** Resolves once the service worker in control says no request has reached it for a moment. */
function serviceWorkerQuiet() {
  const controller = navigator.serviceWorker.controller;
  if (!controller) return Promise.resolve();
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => (channel.port1.onmessage = resolve));
  controller.postMessage({ type: "quiet" }, [channel.port2]);
  return answered;
}
