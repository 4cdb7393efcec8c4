"""The command line, ``python -m yacht``: the outermost edge.

``main`` (the parser, ``advise``, ``review`` and ``duel``; ``main.main`` is what
``yacht.__main__`` runs) and ``practice`` (the ``practice`` command: a game in a terminal, the
advice hidden).

Imports: any layer (``core``, ``chances``, ``play``, ``loader``, ``api``); nothing imports it but
``yacht.__main__``.
"""
