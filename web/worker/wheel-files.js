// A wheel (a zip file) for the worker: fetched, checked against the sha256 the build published
// (when it published one: NumPy's), unpacked by the browser (DecompressionStream), and its files
// written into Python's site-packages (writeFiles): NumPy's and ours, in the page's worker
// (worker-numpy.js, worker.js) and in the snapshot worker (snapshot-worker.js).

import { sha256 } from "./worker-check.js";
import { fetchBytes } from "./worker-fetch.js";

/** The wheel at `url`: {bytes, files}, `bytes` a Uint8Array, `files` a promise of its members
 * (unzip's, begun at once; rejected when they cannot be read). A failure to fetch
 * is a LoadError of `step` naming the file (fetchBytes). With `sha256`, bytes that are not the
 * build's (a damaged copy the service worker kept, say), or none, are fetched once more from the
 * server, past every cache (the URL with a query of its own), and the result is null when they
 * are still not the build's. `priority`: fetch's ("high" or "low"). */
export async function fetchWheel(url, step, { sha256: expected, priority } = {}) {
  const checked = async (from, options) => {
    const bytes = await fetchBytes(from, step, options);
    return !expected || (await sha256(bytes)) === expected ? bytes : null;
  };
  const again = new URL(url);
  again.searchParams.set("again", String(Date.now()));
  const bytes = expected
    ? ((await checked(url, { priority }).catch(() => null)) ?? (await checked(again.href, { priority, fresh: true })))
    : await checked(url, { priority });
  if (!bytes) return null;
  const files = unzip(bytes);
  files.catch(() => {}); // reported where it is awaited
  return { bytes, files };
}

/** The members of the zip file `bytes` as [name, Uint8Array] (folders left out), inflated by the
 * browser. The bytes were checked by their sha256 first (NumPy's; our wheel's come from the build
 * that named them): this reads a well-formed wheel, and rejects what is not one. */
export async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22; // the end of central directory record (no comment in a wheel of ours)
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("no zip directory");
  const names = new TextDecoder();
  const members = [];
  for (let i = 0, at = view.getUint32(end + 16, true); i < view.getUint16(end + 10, true); i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a damaged zip directory");
    const [method, size, nameLength] = [
      view.getUint16(at + 10, true),
      view.getUint32(at + 20, true),
      view.getUint16(at + 28, true),
    ];
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    if (name.endsWith("/")) continue;
    if (method !== 0 && method !== 8) throw new Error(`${name}: zip method ${method}`);
    const inflated = method === 0 ? data : inflate(data);
    const member = Promise.resolve(inflated).then((body) => [name, new Uint8Array(body)]);
    member.catch(() => {}); // reported by Promise.all below, unless a later member throws first
    members.push(member);
  }
  return Promise.all(members);
}

/** The raw deflate stream `data` inflated: a promise of an ArrayBuffer. Read from a stream of its
 * own (a Blob's stream takes twice as long: each Blob is registered with the browser), its one
 * chunk a copy: `data` is a view of the whole wheel's buffer, which a stream may take over (detach)
 * and which every other member's view shares. */
function inflate(data) {
  const source = new ReadableStream({
    start(controller) {
      controller.enqueue(data.slice());
      controller.close();
    },
  });
  return new Response(source.pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer();
}

/** The site-packages folder of `pyodide`'s Python, or null. */
export const sitePackages = (pyodide) =>
  pyodide.runPython("import sys; next((p for p in sys.path if p.endswith('/site-packages')), None)");

/** Write `files` (unzip's) into the folder `site`. */
export function writeFiles(pyodide, files, site) {
  const { FS } = pyodide;
  for (const [name, data] of files) {
    const path = `${site}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
}
