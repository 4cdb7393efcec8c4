// Bytecode for the page's Python, compiled by the Python the page runs (tools/build_site.py runs
// this with Node.js at build time): Pyodide from node_modules/pyodide (the pinned version, so its
// CPython and bytecode format are the page's), its full standard library (py_compile).
//
// stdin: JSON {"files": {"yacht/api.py": "<source>", "yacht/core/dice.py": "<source>", …},
// "sourceless": false}.
// stdout: JSON {"files": {"yacht/__pycache__/api.cpython-312.pyc": "<base64>",
// "yacht/core/__pycache__/dice.cpython-312.pyc": "<base64>", …}}: for each
// source, the file importlib reads instead of compiling it (importlib.util.cache_from_source),
// unchecked-hash pycs (PEP 552: no timestamp, the source's hash inside; the import does not
// compare it with the source, which ships beside it in the same wheel). With "sourceless": true,
// each is written where the source was instead ("numpy/_core/numeric.pyc" for
// "numpy/_core/numeric.py"): the file importlib imports when no source ships beside it (NumPy's
// trimmed wheel: tools/site_build/runtime.py). Docstrings are left out of the bytecode (the package
// reads no __doc__; about a third fewer bytes to download); the code is otherwise the source's,
// asserts included, line numbers unchanged; the column positions of each instruction are left out
// (PYTHONNODEBUGRANGES: a traceback shows lines without the marks under them; about a tenth fewer
// bytes). The hash seed is fixed, so the bytes are the same from build to build.

import { loadPyodide } from "pyodide";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { files, sourceless = false, docstrings = "drop" } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const pyodide = await loadPyodide({
  env: { PYTHONHASHSEED: "0", PYTHONNODEBUGRANGES: "1" },
  stdout: () => {},
  stderr: () => {},
});
pyodide.globals.set("sources", pyodide.toPy(files));
pyodide.globals.set("sourceless", sourceless);
pyodide.globals.set("docstrings", docstrings);
const compiled = pyodide.runPython(`
import ast, base64, importlib.util, os, sys
from importlib._bootstrap_external import _code_to_hash_pyc

assert sys.flags.hash_randomization == 0, "the hash seed must be fixed for reproducible bytecode"
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                if docstrings == "empty":
                    first.value.value = ""
                else:  # dropped (a module's "from __future__" must stay first), or "pass" where it was all
                    node.body[:1] = [] if len(node.body) > 1 or isinstance(node, ast.Module) else [ast.copy_location(ast.Pass(), first)]
    return tree

out = {}
for name, source in sorted(sources.items()):
    code = compile(without_docstrings(ast.parse(source, name)), name, "exec", dont_inherit=True)
    data = _code_to_hash_pyc(code, importlib.util.source_hash(source.encode()), checked=False)
    cached = name[:-3] + ".pyc" if sourceless else importlib.util.cache_from_source("/" + name)[1:]
    out[cached] = base64.b64encode(data).decode()
out
`);
process.stdout.write(JSON.stringify({ files: compiled.toJs({ dict_converter: Object.fromEntries }) }));
