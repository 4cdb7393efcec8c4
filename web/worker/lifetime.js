// How the page tells that a worker of its own has ended: the worker holds, for as long as it lives,
// a shared Web Lock named after itself (its `name`, given by the page: worker-client.js), which the
// browser releases only once the worker is gone, its code stopped with it. Imported first by
// worker.js and snapshot-worker.js, so that the lock is asked for before either fetches anything.
// A worker with no name (or a browser without Web Locks) holds nothing: the page then waits for
// nothing (worker-client.js: WorkerClient.ended).

if (self.name && self.navigator?.locks) {
  navigator.locks.request(self.name, { mode: "shared" }, () => new Promise(() => {})).catch(() => {});
}
