// The wheel helper: a worker of the page's worker (wheel-helper.js starts it) that fetches, checks
// and unpacks a wheel (wheel-files.js: fetchWheel) on a thread of its own, while the page's worker
// is busy starting Python (its thread runs nothing else meanwhile: about 0.6 s here on a first
// visit). Receives {id, url, step, options} (fetchWheel's arguments) and posts {id, wheel}: the
// wheel with its files ({bytes, files, fetchedAt, unpackedAt}, every buffer transferred; files
// null and `unreadable` the reason when they cannot be read), {id, wheel: null} when the bytes
// are not the build's, or {id, error: {step, message, details}} when they could not be fetched.

import { fetchWheel } from "./wheel-files.js";

onmessage = async ({ data: { id, url, step, options } }) => {
  let wheel;
  try {
    wheel = await fetchWheel(url, step, options);
  } catch (error) {
    postMessage({
      id,
      error: { step: error?.step ?? step, message: String(error?.message ?? error), details: error?.details ?? "" },
    });
    return;
  }
  if (!wheel) return postMessage({ id, wheel: null });
  const { bytes, fetchedAt, unpackedAt } = wheel;
  const [files, unreadable] = await wheel.files.then(
    (members) => [members, null],
    (error) => [null, String(error?.message ?? error)],
  );
  const buffers = new Set([bytes.buffer, ...(files ?? []).map(([, data]) => data.buffer)]);
  postMessage({ id, wheel: { bytes, files, fetchedAt, unpackedAt, unreadable } }, [...buffers]);
};
