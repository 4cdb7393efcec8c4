"""The command line, ``python -m yacht``: the outermost edge.

``main`` (the parser, ``advise``, ``review`` and ``duel``; ``main.main`` is what
``yacht.__main__`` runs), ``practice`` (the ``practice`` command: a game in a terminal, the
advice hidden) and ``coach_text`` (the coach's explanation in words, English and Japanese).

Imports: any layer (``core``, ``chances``, ``play``, ``loader``, ``api``); nothing imports it but
``yacht.__main__``.
"""
