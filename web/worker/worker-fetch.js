// The worker's one way to fetch a file (every file it reads: build.json, our wheel, the tables,
// the offline packs; NumPy's wheel through it too), and the one backoff of files fetched again.

import { fileOf, LoadError } from "./worker-load.js";

/** The bytes of `url` (a Uint8Array), or a LoadError of `stepName` naming the file and why (the
 * network's failure, an HTTP status). Options: `priority` (fetch's, "high" or "low"), `fresh`
 * (past every cache: the HTTP cache is reloaded, and the service worker, which keeps no copy of a
 * file evicted, fetches it too), `signal` (an AbortSignal), `onBytes(n)` (called as each piece
 * of n bytes arrives, for a download's progress). */
export async function fetchBytes(url, stepName, { priority, fresh = false, signal, onBytes } = {}) {
  let response;
  try {
    response = await fetch(url, { priority, signal, ...(fresh && { cache: "reload" }) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new LoadError(stepName, `${fileOf(url)}: ${error.message}`);
  }
  if (!response.ok) {
    throw new LoadError(stepName, `${fileOf(url)}: HTTP ${response.status} ${response.statusText}`.trim());
  }
  if (!onBytes) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const pieces = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    onBytes(value.byteLength);
  }
  return new Uint8Array(await new Blob(pieces).arrayBuffer());
}

/** The JSON of `url` (fetchBytes, then parsed), or a LoadError of `stepName` naming the file. */
export async function fetchJSON(url, stepName) {
  const bytes = await fetchBytes(url, stepName);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new LoadError(stepName, `${fileOf(url)}: not JSON (${error.message})`);
  }
}

/** The delays between fetches again of files that failed: doubling from the first, at most the
 * last; `reset()` starts again from the first (the network is back). */
export class Backoff {
  static FIRST_MS = 1000;
  static MOST_MS = 60_000;

  constructor() {
    this.attempt = 0;
  }

  /** The next delay, in ms (each twice the one before). */
  next() {
    return Math.min(Backoff.MOST_MS, Backoff.FIRST_MS * 2 ** this.attempt++);
  }

  reset() {
    this.attempt = 0;
  }
}
