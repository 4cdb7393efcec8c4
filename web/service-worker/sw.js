// Service worker: the whole site (page, Pyodide, NumPy, our wheel, both tables)
// in one versioned cache, so that after one visit the page works with no network;
// the spread tables and chunks a goal fetched and the coach's files (once an explanation is
// asked for) are added to it as they come.
//
// precache.js (written by tools/build_site.py) sets self.PRECACHE = {version, urls, kept}:
// the version is a hash of every precached file, so a new build is a new cache
// and, since the page registers this worker with updateViaCache "none" and the
// browser byte-checks imported scripts, a new service worker; kept lists the tables fetched
// later (their files, and the folders of the chunked ones), kept once fetched.
//
// Life cycle: install fills the new version's cache (each file revalidated with
// the server, never a stale HTTP-cache copy); the new worker then waits until the
// page posts {type: "skip-waiting"} (the page's "update available"), so a page
// never runs against another version's files; activate deletes the other
// versions' caches and takes control of open pages (the first visit included).
// Before that, the page asks the worker in control {type: "quiet"} with a port, and the worker
// answers on it once no request has reached it for QUIET_MS: the takeover waits for this worker to
// stop, and a request reaching it as it stops would start it again (web/page/requests/offline.js).
importScripts("precache.js");

const PREFIX = "yacht-advisor-";
const CACHE = PREFIX + self.PRECACHE.version;
/** The page: every navigation to it, whatever its query (a position or a game), is answered with "./". */
const PAGE = new URL("./", self.registration.scope).href;
const PAGE_PATHS = new Set([new URL(PAGE).pathname, new URL("index.html", PAGE).pathname]);
/** The URLs precached (the query is part of each: a file's hash). */
const PRECACHED = new Set(self.PRECACHE.urls.map((url) => new URL(url, PAGE).href));
/** The paths of the files (and, ending in "/", the folders) kept once fetched. */
const KEPT = self.PRECACHE.kept.map((path) => new URL(path, PAGE).pathname);
const kept = (pathname) => KEPT.some((path) => (path.endsWith("/") ? pathname.startsWith(path) : pathname === path));

self.addEventListener("install", (event) => {
  const requests = self.PRECACHE.urls.map((url) => new Request(url, { cache: "no-cache" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/** How long no request may have reached this worker before it says it is quiet (ms): many times
 * what a request sent as the page's workers end takes to arrive here (1–2 ms on a busy 2-core
 * machine, docs/page.md). */
const QUIET_MS = 100;
/** When the last request reached this worker (performance.now(), ms). */
let lastRequestAt = performance.now();

/** Resolves once no request has reached this worker for QUIET_MS. */
async function quiet() {
  for (let wait = QUIET_MS; wait > 0; wait = lastRequestAt + QUIET_MS - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

self.addEventListener("message", (event) => {
  if (event.data?.type === "skip-waiting") self.skipWaiting();
  if (event.data?.type === "quiet" && event.ports[0]) {
    event.waitUntil(quiet().then(() => event.ports[0].postMessage({ quiet: true })));
  }
});

// Only the site's own files are answered here: the page, what is precached and what is kept once
// fetched. Any other request (a browser's own favicon.ico, say) goes to the network untouched, so
// that its failure offline is the browser's plain one.
self.addEventListener("fetch", (event) => {
  lastRequestAt = performance.now();
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = request.mode === "navigate" && PAGE_PATHS.has(url.pathname);
  if (!page && !PRECACHED.has(url.href) && !kept(url.pathname)) return;
  event.respondWith(
    (async () => {
      // Cache first; a spread table, a chunk or a coach file is not precached (only a goal or an
      // explanation needs it): it is kept once it has loaded. A cache that fails to answer is a
      // miss (the network then answers).
      const cache = await caches.open(CACHE).catch(() => null);
      const cached = await cache?.match(page ? PAGE : request).catch(() => null);
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok && cache && kept(url.pathname)) await cache.put(request, response.clone()).catch(() => {});
      return response;
    })(),
  );
});
