// What the warm start (snapshot.js) remembers beside its snapshot, in the Cache API's STATE (a
// name the service worker does not manage), each entry a small JSON under a URL naming the
// build's snapshot key:
//
//   begun?build=KEY&visit=ID   a restore from the snapshot has begun in visit ID and its first
//                              answer is not given yet (beginRestore; restoreFinished deletes it).
//                              The visit holds the Web Lock "yacht-snapshot-restore-ID" meanwhile,
//                              so a mark whose lock nobody holds is a restore that took its tab
//                              down (or was closed): the next visit deletes the snapshot, starts
//                              afresh, and no snapshot of that build is taken again (crashed).
//                              Without the Web Locks API every mark found counts as left.
//   crashed?build=KEY          {at}: a restore of this build's snapshot did not finish.
//   outcome?build=KEY          {saved, error?, at}: what the last try to take this build's
//                              snapshot came to (takeSnapshot), also said in the console.
//   no-space?build=KEY         {needed, free, at}: the snapshot (`needed` bytes) could not be
//                              saved for lack of space (`free`: the storage estimate's free bytes
//                              then, or null); it is tried again only once the estimate shows
//                              that much free and more than then, or a day later.
//
// Any failure of the Cache API here is a normal start: nothing is remembered, nothing refused.

const STATE = "yacht-runtime-snapshot-state";
/** How long after a snapshot did not fit it is tried again anyway (the browser's estimate of
 * the free space may be wrong either way). */
const RETRY_NO_SPACE_MS = 24 * 3600 * 1000;

const entry = (kind, key, visit) => {
  const url = new URL(`snapshot-state/${kind}`, key);
  url.searchParams.set("build", new URL(key).searchParams.get("build"));
  if (visit) url.searchParams.set("visit", visit);
  return url.href;
};

async function put(url, value) {
  const body = JSON.stringify(value);
  await (await caches.open(STATE)).put(url, new Response(body, { headers: { "Content-Type": "application/json" } }));
}

/** How long a read of the state may take: a Cache API that does not answer is no state. */
const READ_MS = 5000;

async function get(url) {
  const read = (async () => {
    const response = await (await caches.open(STATE)).match(url);
    return response ? response.json() : null;
  })();
  const late = new Promise((_, fail) => setTimeout(() => fail(new Error("the Cache API did not answer")), READ_MS));
  return Promise.race([read, late]);
}

async function drop(url) {
  await (await caches.open(STATE)).delete(url);
}

/** The lock names held by live visits of this origin (empty without the Web Locks API). */
async function heldLocks() {
  const state = await globalThis.navigator?.locks?.query?.();
  return new Set((state?.held ?? []).map((lock) => lock.name));
}

const lockName = (visit) => `yacht-snapshot-restore-${visit}`;

/** The pending restore's mark: deleted, and its lock released, by restoreFinished. */
let pending = null;

/** Before a restore from the snapshot of `key`: null when it may go ahead (this visit's begun mark
 * is then written and its lock held), or why not (a restore of an earlier visit left its mark:
 * the caller deletes the snapshot and starts afresh). */
export async function beginRestore(key) {
  try {
    const cache = await caches.open(STATE);
    const prefix = entry("begun", key);
    // A visit holds its lock from before it writes its mark until after it deletes it. So a mark
    // read before the locks are asked for, and still there after, whose lock was not held, was
    // left by a visit that ended without finishing (read the other way round, a visit beginning
    // or finishing meanwhile in another tab would look like one).
    const marks = (await cache.keys()).map((r) => r.url).filter((url) => url.startsWith(prefix));
    const held = await heldLocks();
    const unheld = marks.filter((url) => !held.has(lockName(new URL(url).searchParams.get("visit"))));
    const left = [];
    for (const url of unheld) if (await cache.match(url)) left.push(url);
    if (left.length) {
      for (const url of left) await cache.delete(url);
      await put(entry("crashed", key), { at: Date.now() });
      return "an earlier start from the snapshot did not finish";
    }
    const visit = crypto.randomUUID();
    const mark = entry("begun", key, visit);
    let release;
    const released = new Promise((resolve) => (release = resolve));
    if (globalThis.navigator?.locks) {
      await new Promise((granted, refused) =>
        navigator.locks
          .request(lockName(visit), () => {
            granted();
            return released;
          })
          .catch(refused),
      );
    }
    await put(mark, { at: Date.now() });
    pending = { mark, release };
    return null;
  } catch (error) {
    console.warn("The warm start's state could not be read:", error);
    return null;
  }
}

/** The restore begun by beginRestore is over (its first answer given, or it failed without taking
 * the tab down): its mark is deleted. */
export async function restoreFinished() {
  const done = pending;
  pending = null;
  if (!done) return;
  try {
    await drop(done.mark);
  } catch (error) {
    console.warn("The warm start's mark could not be deleted:", error);
  }
  done.release();
}

/** Free bytes in this origin's storage as the browser estimates them, or null when it does not. */
async function freeBytes() {
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
  return estimate?.quota ? estimate.quota - (estimate.usage ?? 0) : null;
}

/** Why no snapshot of `key` is to be taken now (a restore of this build's took a tab down; or it
 * did not fit, and neither has more become free since, nor RETRY_NO_SPACE_MS passed), or null. */
export async function snapshotRefused(key) {
  try {
    if (await get(entry("crashed", key))) return "a start from this build's snapshot did not finish once";
    const short = await get(entry("no-space", key));
    if (!short || Date.now() - short.at > RETRY_NO_SPACE_MS) return null;
    const free = await freeBytes();
    if (free !== null && free >= short.needed && (short.free === null || free > short.free)) return null;
    return `it needs ${(short.needed / 1e6).toFixed(1)} MB, more than the storage had free when it was last tried`;
  } catch (error) {
    console.warn("The warm start's state could not be read:", error);
    return null;
  }
}

/** What the try to take the snapshot of `key` came to: {saved, error?} (for people and tests). */
export async function rememberOutcome(key, outcome) {
  try {
    await put(entry("outcome", key), { saved: outcome.saved, error: outcome.error, at: Date.now() });
  } catch (error) {
    console.warn("The warm start's state could not be saved:", error);
  }
}

/** The snapshot of `key` (`needed` bytes) could not be saved for lack of space. */
export async function rememberNoSpace(key, needed) {
  try {
    await put(entry("no-space", key), { needed, free: await freeBytes(), at: Date.now() });
  } catch (error) {
    console.warn("The warm start's state could not be saved:", error);
  }
}

/** The snapshot of `key` was saved: what an earlier lack of space left is forgotten, and every
 * entry of other builds deleted. */
export async function forgetNoSpace(key) {
  try {
    const cache = await caches.open(STATE);
    const build = new URL(key).searchParams.get("build");
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.searchParams.get("build") !== build || url.pathname.endsWith("/no-space")) await cache.delete(request);
    }
  } catch (error) {
    console.warn("The warm start's state could not be saved:", error);
  }
}
