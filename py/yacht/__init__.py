"""Exact expected-score advice for Yacht (Clubhouse Games: 51 Worldwide Classics).

A pure package: NumPy is its only dependency and nothing in it reads files,
the network or the clock. The same code runs on CPython and in Pyodide.

Modules:
    categories  the 12 categories, their order and names
    dice        the 252 rolls, the 462 keeps and the reroll operators
    rules       scoring per variant (``official`` and ``strict``)
    solver      backward induction for Ẽ(mask, ν)
    table       the compact on-disk table of Ẽ (encode / decode)
    position    the position format (the page's URL query)
    advisor     ranked options for one position
"""

__version__ = "0.1.0"
