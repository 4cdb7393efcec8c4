// NumPy and our package inside the warm start's snapshot (snapshot.js): taken after `import numpy,
// yacht.api` (snapshot-worker.js: importPackages), restored with NumPy's WebAssembly modules loaded
// again where they were (worker.js: restorePackages), so that a second visit imports nothing.
//
// Pyodide 0.27.7's snapshot is the WebAssembly memory alone. NumPy's two modules are WebAssembly
// modules of their own: each has a block of that memory (its data) and a run of slots in the
// function table, given out when it is loaded. Emscripten's loader records both in a handle (a
// block of memory the caller passes: at +8 "loaded", +12 the memory base, +16 its size, +20 the
// table base, +24 its size) and, handed a handle already marked loaded, instantiates the module at
// the recorded bases instead of giving out new ones ("not the first load"). The handles are in the
// snapshot's memory, so after a restore each module is loaded again with its handle, in the order
// it was first loaded; its data (rewritten by the instantiation to its initial values) is then
// copied back from the snapshot. The table must be exactly as long as when each was loaded, and
// as long as when the snapshot was taken once all are: anything else throws, and worker.js then
// deletes the snapshot and starts afresh.
//
// The snapshot's record of them (snapshot.js keeps it beside the memory): {libraries: [{path,
// handle}], slots} (`slots`: the function table's length when the snapshot was taken), or
// {libraries: [], slots} for a snapshot of the runtime alone.

import { sitePackages, writeFiles } from "./wheel-files.js";

/** The bytes of a handle (Emscripten's `struct dso` is smaller: only its fields above are used). */
const HANDLE_BYTES = 64;

/** Emscripten's loader with `handle`, the module read from Pyodide's file system, as Pyodide's
 * own loadDynlib loads it (not global, never unloaded). */
function load(pyodide, path, handle) {
  const module = pyodide._module;
  const fs = { findObject: (p, follow) => module.FS.findObject(p, follow), readFile: (p) => module.FS.readFile(p) };
  const flags = { loadAsync: true, nodelete: true, allowUndefined: true, global: false, fs };
  return module.loadDynamicLibrary(path, flags, {}, handle);
}

/** The number of slots in the runtime's function table. */
const slots = (pyodide) => pyodide._module.wasmTable.length;

/** In the snapshot's Python: load the WebAssembly modules of `paths` (site-packages files, in the
 * wheel's order) with handles, then `import numpy, yacht.api`. Returns the snapshot's record. */
export async function importPackages(pyodide, paths) {
  const module = pyodide._module;
  const libraries = [];
  for (const path of paths) {
    const handle = module._calloc(HANDLE_BYTES, 1);
    if (!handle) throw new Error("no memory for a library's handle");
    await load(pyodide, path, handle);
    libraries.push({ path, handle });
  }
  pyodide.runPython("import numpy, yacht.api");
  return { libraries, slots: slots(pyodide) };
}

/** The handle fields of the library at `handle` in `memory` (restored from `heap`, the snapshot's
 * memory part): {loaded, memoryBase, memorySize, tableBase}. Throws when the handle or the block
 * of memory it records does not lie inside both, before anything is written. */
function handleOf(path, handle, heap, memory) {
  const inside = (at, size) => Number.isInteger(at) && at > 0 && at + size <= heap.length && at + size <= memory.length;
  if (!inside(handle, HANDLE_BYTES)) throw new Error(`${path}: its handle ${handle} is outside the snapshot's memory`);
  const words = new DataView(memory.buffer, memory.byteOffset + handle, HANDLE_BYTES);
  const [memoryBase, memorySize] = [words.getUint32(12, true), words.getUint32(16, true)];
  if (!inside(memoryBase, memorySize))
    throw new Error(`${path}: its memory (${memorySize} bytes at ${memoryBase}) is outside the snapshot's`);
  return { loaded: memory[handle + 8], memoryBase, memorySize, tableBase: words.getUint32(20, true) };
}

/** After `pyodide` was restored from a snapshot whose memory is `heap` (the snapshot's memory part)
 * and whose record is `record`: its modules loaded again where they were, their data as the
 * snapshot left it. The files must be in site-packages again. Throws when a library's path is not
 * a site-packages module, its handle or memory lies outside the memory, or the table does not
 * match the record (the snapshot is then not used). */
export async function restorePackages(pyodide, record, heap) {
  const module = pyodide._module;
  const site = `${sitePackages(pyodide)}/`;
  for (const { path, handle } of record.libraries) {
    if (
      typeof path !== "string" ||
      !path.startsWith(site) ||
      !path.endsWith(".so") ||
      !module.FS.analyzePath(path).exists
    )
      throw new Error(`${String(path)}: not a module of site-packages`);
    const { loaded, memoryBase, memorySize, tableBase } = handleOf(path, handle, heap, module.HEAPU8);
    if (!loaded) throw new Error(`${path}: the snapshot holds no record of its load`);
    if (slots(pyodide) !== tableBase)
      throw new Error(`${path}: the function table has ${slots(pyodide)} slots, not ${tableBase}`);
    await load(pyodide, path, handle);
    module.HEAPU8.set(heap.subarray(memoryBase, memoryBase + memorySize), memoryBase);
  }
  if (slots(pyodide) !== record.slots)
    throw new Error(`the function table has ${slots(pyodide)} slots, not the snapshot's ${record.slots}`);
}

/** The snapshot's packages in `pyodide`, just restored from `saved` (snapshot.js: readSnapshot):
 * NumPy's files (`numpy`: worker-numpy.js's fetchNumpyWheel) and ours (`ours`: the unpacked
 * wheel, a promise) written into site-packages, NumPy's modules loaded where they were, then
 * checked by a NumPy call. Throws on any failure (the caller then starts afresh). */
export async function restoreSnapshotPackages(pyodide, saved, numpy, ours) {
  globalThis.numpySteps.wanted = performance.now();
  const fetched = await numpy;
  if (!fetched) throw new Error("NumPy's wheel is not the build's");
  const site = sitePackages(pyodide);
  writeFiles(pyodide, await fetched.files, site);
  writeFiles(pyodide, await ours, site);
  await restorePackages(pyodide, saved.record, saved.heap);
  if (pyodide.runPython("import numpy, yacht.api; int(numpy.arange(4) @ numpy.arange(4))") !== 14)
    throw new Error("NumPy does not compute after the restore");
}
