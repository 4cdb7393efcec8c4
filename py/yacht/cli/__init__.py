"""The command line, ``python -m yacht``: the outermost edge.

``main`` (the parser and the dispatch; ``main.main`` is what ``yacht.__main__`` runs), one
module per sub-command with its text rendering: ``advise`` (ranked options), ``review`` (a
game's decisions graded), ``duel`` (the win-aware player's duel and its statistics),
``practice`` (a game in a terminal, the advice hidden); ``query`` (the query loop of ``advise``
and ``review``) and ``coach_text`` (the coach's explanation in words, English and Japanese).

Imports: any layer (``core``, ``chances``, ``play``, ``loader``, ``api``); nothing imports it but
``yacht.__main__``.
"""
