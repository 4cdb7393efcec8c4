// The check of a file's bytes against the SHA-256 the build published (the runtime's files, a pack's
// parts): sha256, and the LoadError of a runtime file that is not the build's (altered,
// alteredStdlib, shared with snapshot-worker.js).

import { RUNTIME } from "./runtime.js";
import { fetchBytes } from "./worker-fetch.js";
import { fileOf, LoadError, pyodideOptions } from "./worker-load.js";

/** The SHA-256 of `bytes`, in hex. */
export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A LoadError of `stepName` when the runtime file at `url` (`bytes`: as received; else fetched
 * again) is not the one the build published, else null (also when it cannot be fetched again:
 * then the failure is not the file's bytes). */
export async function altered(stepName, url, expected, bytes) {
  try {
    bytes ??= await fetchBytes(url, stepName);
  } catch {
    return null;
  }
  const actual = await sha256(bytes);
  if (actual === expected) return null;
  const why = `sha256 ${actual}, but the build published ${expected}`;
  return new LoadError(stepName, `${fileOf(url)}: damaged or substituted, refused`, why);
}

/** The LoadError of a started Pyodide whose standard library is not this build's (sha256), or null. */
export async function alteredStdlib(pyodide) {
  const zip = pyodide.FS.readdir("/lib").find((name) => /^python\d+\.zip$/.test(name));
  return altered("runtime", pyodideOptions.stdLibURL, RUNTIME.stdLibSha256, pyodide.FS.readFile(`/lib/${zip}`));
}
