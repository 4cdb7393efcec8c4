"""The site's NumPy's ``numpy/linalg/_umath_linalg``: its compiled routines are left out.

``import numpy`` imports ``numpy.linalg`` (``numpy.matrixlib`` and ``numpy.lib`` import from it),
which imports this module, but only ``numpy.linalg``'s functions read its routines, when called:
the advisor calls none of them. The official module is 1.9 MB of WebAssembly (421 kB of the
wheel) that every first visit would download and compile, and every visit load. The site build
(``tools/site_build/runtime.py``: ``LEFT_OUT``) ships this module in its place, as bytecode, so
that NumPy imports as before and any call of ``numpy.linalg`` says what is missing.
"""

MESSAGE = (
    "numpy.linalg's compiled routines (_umath_linalg.{name}) are not part of this site's runtime: "
    "the site's NumPy leaves them out (tools/site_build/umath_linalg.py)"
)


def __getattr__(name: str) -> object:
    """Any routine read raises ImportError naming it; a dunder name is simply absent."""
    if name.startswith("__"):
        raise AttributeError(name)
    raise ImportError(MESSAGE.format(name=name))
