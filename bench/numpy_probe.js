// The NumPy step taken apart, for bench/bench_engines.py --probe: pasted into a COPY of the built
// worker (public/worker.js), never into web/. It replaces the worker's loadNumpy with one that
// calls the original (renamed loadNumpyOriginal) and times, inside the worker: each WebAssembly
// compile and instantiation meanwhile (NumPy's .so files, loaded by the worker's install or by
// loadPackage, web/worker/worker-numpy.js), the install as a whole (the wheel's fetch, when it is
// not in yet, and its unpacking are before the step now: bench_engines' columns time them) and
// `import numpy`. Then, after the step: each .so compiled again alone (WebAssembly.compile, no
// linking), and the source of every NumPy module imported compiled again by Python (none since
// the wheel ships bytecode only). The figures reach the page as a progress message of step
// "probe" whose state is their JSON: the page marks it (`yacht:probe:<json>`).

/* global performance, WebAssembly, Response, loadNumpyOriginal, progress */

// eslint-disable-next-line no-unused-vars -- called by the worker it is pasted into
async function loadNumpy(pyodide) {
  const t0 = performance.now();
  const since = (t) => Math.round((t - t0) * 10) / 10;
  const probe = { wasm: [], bodies: [] };
  const W = WebAssembly;
  const saved = { instantiate: W.instantiate, compile: W.compile, Module: W.Module, Instance: W.Instance };
  const sizeOf = (source) => (source instanceof saved.Module ? null : (source?.byteLength ?? null));
  const timed = (kind, call) =>
    async function (source, ...rest) {
      const start = performance.now();
      try {
        return await call.call(W, source, ...rest);
      } finally {
        probe.wasm.push({ kind, bytes: sizeOf(source), at: since(start), ms: since(performance.now()) - since(start) });
      }
    };
  const timedNew = (kind, Target) =>
    new Proxy(Target, {
      construct(target, args) {
        const start = performance.now();
        try {
          return new target(...args);
        } finally {
          const ms = since(performance.now()) - since(start);
          probe.wasm.push({ kind, bytes: sizeOf(args[0]), at: since(start), ms });
        }
      },
    });
  W.instantiate = timed("instantiate", saved.instantiate);
  W.compile = timed("compile", saved.compile);
  W.Module = timedNew("new Module", saved.Module);
  W.Instance = timedNew("new Instance", saved.Instance);
  const body = Response.prototype.arrayBuffer;
  Response.prototype.arrayBuffer = async function () {
    const start = performance.now();
    try {
      return await body.call(this);
    } finally {
      probe.bodies.push({ url: this.url.split("/").pop(), at: since(start), end: since(performance.now()) });
    }
  };
  let wasmDone;
  try {
    // loadNumpyOriginal = loadPackage + pyimport: time them apart by timing pyimport.
    const pyimport = pyodide.pyimport.bind(pyodide);
    pyodide.pyimport = (name) => {
      if (name !== "numpy") return pyimport(name);
      probe.loadPackageEnd = since(performance.now());
      try {
        return pyimport(name);
      } finally {
        probe.importEnd = since(performance.now());
      }
    };
    try {
      await loadNumpyOriginal(pyodide);
    } finally {
      pyodide.pyimport = pyimport;
    }
  } finally {
    Object.assign(W, saved);
    Response.prototype.arrayBuffer = body;
    wasmDone = since(performance.now());
  }
  probe.stepEnd = wasmDone;
  // After the step (not counted in it): each .so compiled again alone, and NumPy's source compiled again.
  probe.recompile = [];
  const site = pyodide.runPython("import numpy, os; os.path.dirname(os.path.dirname(numpy.__file__))");
  const libs = pyodide.runPython(
    `import os\n[os.path.join(d, f) for d, _, fs in os.walk(${JSON.stringify(site)} + "/numpy") for f in fs if f.endswith(".so")]`,
  );
  for (const path of libs.toJs()) {
    const bytes = pyodide.FS.readFile(path);
    const start = performance.now();
    await WebAssembly.compile(bytes);
    probe.recompile.push({
      file: path.split("/").pop(),
      bytes: bytes.length,
      ms: since(performance.now()) - since(start),
    });
  }
  libs.destroy();
  const sources = pyodide.runPython(`
import sys, time
files = [m.__file__ for m in list(sys.modules.values())
         if m.__name__.split(".")[0] == "numpy" and (getattr(m, "__file__", None) or "").endswith(".py")]
texts = [open(f, "rb").read() for f in files]
t = time.perf_counter()
for f, text in zip(files, texts):
    compile(text, f, "exec", dont_inherit=True)
[len(files), sum(map(len, texts)), (time.perf_counter() - t) * 1000,
 sum(1 for m in list(sys.modules.values()) if getattr(m, "__cached__", None) and __import__("os").path.exists(m.__cached__) and m.__name__.split(".")[0] == "numpy")]
`);
  const [modules, sourceBytes, compileMs, cachedPyc] = sources.toJs();
  sources.destroy();
  probe.pySource = { modules, bytes: sourceBytes, compileMs, pycWritten: cachedPyc };
  progress("probe", JSON.stringify(probe));
}
