"""The play layer: whole games.

``game`` (the game record format, the page's ``h=``: parse, format, a broken record's legal
start), ``record`` (its types), ``replay`` (the rules of a record: its steps, where it stops
being legal), ``same_game`` (when
two records are one game: a kept game's identity), ``practice_dice``
(the seed's dice of a practice game), ``practice`` (the simulated opponent, a game played one
choice at a time), ``review`` (grading every decision of a record), ``graded`` (what a review answers: the graded
decisions, the loss counts) and ``duel``
(the win-aware player against the expected-score player, played at scale).

Imports: ``core``, ``chances`` and this layer, never the edges (``loader``, ``api``) or ``cli``.
"""
