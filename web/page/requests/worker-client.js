// Messages to the worker (worker.js: Pyodide + NumPy + our package): requests with ids, and one
// "latest request wins" queue that the advice and the review both use.

/** The worker index.html started before the modules loaded, with what it said meanwhile; once. */
function takeEarlyWorker() {
  const early = globalThis.yachtEarlyWorker;
  globalThis.yachtEarlyWorker = undefined;
  return early;
}

/** A name of its own for a client's workers: the Web Lock they hold while they live
 * (web/worker/lifetime.js; index.html names its early worker the same way). */
function lifetimeName() {
  return `yacht-worker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Messages to the worker: each request has an id; its reply settles the request's promise. */
export class WorkerClient {
  constructor(onProgress, onRecovered = () => {}, onPack = () => {}) {
    this.pending = new Map();
    this.nextId = 1;
    const early = takeEarlyWorker();
    /** The worker and the one taking a snapshot hold a shared Web Lock of this name while they live. */
    this.name = early?.name ?? lifetimeName();
    this.worker =
      early?.worker ?? new Worker(new URL("worker.js", document.baseURI), { type: "module", name: this.name });
    this.worker.onmessage = ({ data }) => {
      if (data.type === "progress") return onProgress(data);
      if (data.type === "recovered") return onRecovered(data);
      if (data.type === "pack") return onPack(data);
      if (data.type === "snapshot-worker") return this.snapshotWorker(data.action);
      const request = this.pending.get(data.id);
      if (!request) return;
      this.pending.delete(data.id);
      if ("error" in data) request.reject(data.error);
      else request.resolve(data.result);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || "worker.js or pyodide/pyodide.mjs could not be loaded";
      this.failure = { kind: "load", step: "runtime", message };
      this.failAll(this.failure);
    };
    for (const event of early?.said ?? []) {
      if (event.type === "error") this.worker.onerror(event);
      else this.worker.onmessage(event);
    }
  }

  /** Start ("start") or end ("end") the worker that takes the warm start's snapshot
   * (snapshot-worker.js), as the worker asks (web/worker/snapshot.js: takeSnapshot), and relay what
   * it says to the worker ({snapshot}): started from here, not from the worker, because Firefox
   * sometimes never returns from a worker started by a worker. */
  snapshotWorker(action) {
    this.snapshotTaker?.terminate();
    this.snapshotTaker = null;
    if (action !== "start") return;
    const taker = new Worker(new URL("snapshot-worker.js", document.baseURI), { type: "module", name: this.name });
    taker.onmessage = ({ data }) => this.worker.postMessage({ snapshot: data });
    taker.onerror = (event) => {
      event.preventDefault();
      this.worker.postMessage({
        snapshot: { saved: false, error: event.message || "snapshot-worker.js did not load" },
      });
    };
    this.snapshotTaker = taker;
  }

  call(action, args = {}) {
    if (this.failure) return Promise.reject(this.failure); // the worker failed before this call
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, action, args });
    });
  }

  failAll(error) {
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
  }

  /** End the worker (and the one taking a snapshot): what is pending, and any later call, fails as
   * "cancelled". */
  terminate() {
    this.snapshotWorker("end");
    this.worker.terminate();
    this.failure = { kind: "cancelled", message: "stopped" };
    this.failAll(this.failure);
  }

  /** Resolves once this client's workers have ended (after terminate): the browser gives the page
   * their Web Lock only when none of them is left, with no code of theirs still running and so no
   * fetch of theirs still to come. Resolves at once without Web Locks (then they may be ending). */
  ended() {
    if (!navigator.locks) return Promise.resolve();
    return navigator.locks.request(this.name, { mode: "exclusive" }, () => {}).catch(() => {});
  }
}

/** One request at a time; while one runs, only the latest wish waits (older wishes are dropped).
 *
 * `send(request)` returns a promise; `done(request, result)` or `failed(request, error)` is called
 * with its outcome; `canSend()` says whether requests can go out now (the worker has loaded):
 * call `pump()` again when it becomes true. `cancel(request)`, if given, is called when another
 * request is wanted while `request` runs (the worker then ends it early, as a failure). */
export class LatestRequest {
  constructor({ send, done, failed, canSend, cancel = null }) {
    Object.assign(this, { send, done, failed, canSend, cancel });
    this.wanted = null;
    this.running = null;
    this.dropped = null;
  }

  /** Ask for `request`; it replaces any request still waiting. */
  want(request) {
    this.wanted = request;
    if (this.running !== null && this.running !== request) this.cancel?.(this.running);
    this.pump();
  }

  /** Nothing is wanted now: a request waiting is dropped, and the one running is cancelled (if it
   * can be) and its outcome ignored. */
  drop() {
    this.wanted = null;
    if (this.running === null || this.dropped === this.running) return;
    this.dropped = this.running;
    this.cancel?.(this.running);
  }

  async pump() {
    if (this.running !== null || this.wanted === null || !this.canSend()) return;
    const request = this.wanted;
    this.wanted = null;
    this.running = request;
    try {
      const result = await this.send(request);
      if (this.dropped !== request) this.done(request, result);
    } catch (error) {
      if (this.dropped !== request) this.failed(request, error);
    } finally {
      this.running = this.dropped = null;
    }
    this.pump();
  }
}
