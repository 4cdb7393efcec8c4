// The files answers go without for now (one entry per file, never per kind): each fetched after
// the start that failed to load, or took longer than an answer waits. They are fetched again by
// themselves with one backoff (worker-fetch.js: Backoff), at once when the network is back or
// when the offline pack becomes ready; `arrived(variant)` is called for each variant with files
// that have arrived, so that Python and the page are told.

import { Backoff } from "./worker-fetch.js";
import { fileKey } from "./table-source.js";

/** The lacking files of one worker: `load(file, {network})` loads one file (resolves once it is in
 * Python's tables, rejects when it could not be had), `arrived(variant)` is called once files of
 * `variant` have arrived. */
export function lackingFiles(load, arrived) {
  /** key -> {kind, variant, part, name}. */
  const files = new Map();
  const backoff = new Backoff();
  let timer = null;

  /** Try every lacking file once more (from the network unless `network` is false); those that
   * load are no longer lacking; while some still lack, again after the next delay. */
  async function fetchAgain(network = true) {
    if (network) timer = null; // (this call is the timer's)
    const tries = [...files.entries()].map(([key, file]) =>
      load(file, { network }).then(
        () => (files.delete(key), file.variant),
        () => null,
      ),
    );
    const variants = new Set((await Promise.all(tries)).filter(Boolean));
    for (const variant of variants)
      await arrived(variant).catch((error) => console.warn(`The files of ${variant} arrived, not applied:`, error));
    if (!files.size) backoff.reset();
    else if (network) schedule(backoff.next());
  }

  function schedule(wait) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(fetchAgain, wait);
  }

  return {
    has: (key) => files.has(key),
    /** `file` ({kind, variant, part, name}) could not be had now: it is fetched again by itself. */
    add(file) {
      files.set(fileKey(file.kind, file.variant, file.part), file);
      if (timer === null) schedule(backoff.next());
    },
    /** The lacking files of `variant`, as [kind, part] (what Python is told to go without). */
    of: (variant) => [...files.values()].filter((f) => f.variant === variant).map((f) => [f.kind, f.part]),
    /** The network is back: every lacking file is fetched again now, the backoff from its start. */
    retryNow() {
      backoff.reset();
      if (files.size) schedule(0);
    },
    /** The offline pack holds more now: the lacking files it holds are read from it at once. */
    readPack: () => (files.size ? fetchAgain(false) : Promise.resolve()),
  };
}
