// The worker's tables (web/worker.js uses them): each rule variant's table (fetched at start), its
// spread table and its chunks of R and of the law (fetched only when a goal needs them), the
// coach's files (fetched only when an explanation is first asked for), put into the Python
// loader yacht.loader.Tables as they arrive. The service worker keeps the spread tables, the
// chunks and the coach's files once fetched; build.json names every file with a content hash in its query.

import { fetchBytes, here, LoadError, step } from "./worker-load.js";

/** The message of the Python exception that `error` carries (str(exc), without the traceback). */
export function pythonMessage(py, error) {
  if (error?.type === undefined) return String(error?.message ?? error);
  const exc = py.sys.last_exc;
  try {
    return exc ? exc.toString() : error.message;
  } finally {
    exc?.destroy();
  }
}

/** The loaders of one worker: `build` resolves to build.json, `advisor` to the package's handles
 * (`py`: builtins, table, tables, sys). Each file is fetched once; a reach chunk that failed to
 * load is asked for again by the next answer that needs it (a phone's network comes back). */
export function tableLoaders(build, advisor) {
  /** variant -> Promise that resolves once its table is decoded into py.tables. */
  const tables = new Map();
  /** variant -> Promise that resolves once its spread table is decoded into py.tables.spreads. */
  const spreads = new Map();
  /** "variant/quantity/mask" -> Promise that resolves once that chunk is in py.tables.chunks. */
  const chunks = new Map();
  /** "variant/quantity" -> Promise that resolves once that coach file is in py.tables.coaches. */
  const coaches = new Map();

  /** Decode `bytes` with `decode(py, data)` (Python), a failure as a LoadError of the table step.
   * The bytes cross as one buffer copy (toPy gives a memoryview, bytes() copies it): bytes() of the
   * Uint8Array itself would iterate over it, about 60 ms for the 224 kB table. */
  async function decodeInto(bytes, decode) {
    const py = await advisor;
    const view = py.pyodide.toPy(bytes);
    const data = py.builtins.bytes(view);
    view.destroy();
    try {
      decode(py, data);
    } catch (error) {
      throw new LoadError("table", pythonMessage(py, error));
    } finally {
      data.destroy();
    }
  }

  /** The entry of `variant` in build.json's `field` (tables, spreads, reach). */
  async function entry(field, variant, what) {
    const b = await build;
    if (!Object.hasOwn(b[field] ?? {}, variant))
      throw new LoadError("table", `build.json lists no ${what} for ${variant}`);
    return b[field][variant];
  }

  function loadTable(variant) {
    if (!tables.has(variant)) {
      const bytes = entry("tables", variant, "table").then((e) => fetchBytes(here(e.url), "table"));
      bytes.catch(() => {});
      const loaded = (async () => {
        await advisor;
        await step("table", { variant }, async () =>
          decodeInto(await bytes, (py, data) => {
            const table = py.table.decode.callKwargs(data, { source: `the ${variant} table`, variant });
            py.tables.set(variant, table);
            table.destroy();
          }),
        );
      })();
      loaded.catch(() => {}); // reported where it is awaited
      tables.set(variant, loaded);
    }
    return tables.get(variant);
  }

  function loadSpread(variant) {
    if (!spreads.has(variant)) {
      const loaded = (async () => {
        const e = await entry("spreads", variant, "spread table");
        await decodeInto(await fetchBytes(here(e.url), "table"), (py, data) => {
          const held = py.tables.spreads;
          try {
            const sd = py.table.decode_spread.callKwargs(data, { source: `the ${variant} spread table`, variant });
            held.set(variant, sd);
            sd.destroy();
          } finally {
            held.destroy();
          }
        });
      })();
      loaded.catch(() => {}); // reported where it is awaited
      spreads.set(variant, loaded);
    }
    return spreads.get(variant);
  }

  /** The chunks of `variant` named by yacht.api.ReachMissing: for each, its quantity ("reach" or
   * "law", a folder in build.json), its mask and its file name; fetched in parallel. */
  function loadChunks(variant, quantities, masks, names) {
    return Promise.all(
      masks.map((mask, i) => {
        const key = `${variant}/${quantities[i]}/${mask}`;
        if (!chunks.has(key)) {
          const loaded = (async () => {
            const e = await entry(quantities[i], variant, `${quantities[i]} chunks`);
            const bytes = await fetchBytes(here(`${e.url}${names[i]}?h=${e.hash}`), "table");
            await decodeInto(bytes, (py, data) => py.tables.add_chunk(variant, mask, data, quantities[i]));
          })();
          loaded.catch(() => chunks.delete(key)); // asked for again next time
          chunks.set(key, loaded);
        }
        return chunks.get(key);
      }),
    );
  }

  /** The coach's files of `variant` named by yacht.api.CoachMissing (its quantities: "bonus",
   * "points"; build.json's `coach`), fetched in parallel; one that failed is asked for again. */
  function loadCoach(variant, quantities) {
    return Promise.all(
      quantities.map((quantity) => {
        const key = `${variant}/${quantity}`;
        if (!coaches.has(key)) {
          const loaded = (async () => {
            const e = await entry("coach", variant, "coach files");
            if (!Object.hasOwn(e, quantity)) throw new LoadError("table", `build.json lists no coach ${quantity} file`);
            const bytes = await fetchBytes(here(e[quantity].url), "table");
            await decodeInto(bytes, (py, data) => py.tables.add_coach(variant, quantity, data));
          })();
          loaded.catch(() => coaches.delete(key)); // asked for again next time
          coaches.set(key, loaded);
        }
        return coaches.get(key);
      }),
    );
  }

  return { tables, loadTable, loadSpread, loadChunks, loadCoach };
}
