"""The core layer: the game and its exact expected-score advice.

``categories`` (the 12 categories, their order and names), ``dice`` (the 252 rolls, the 462 keeps
and the reroll operators), ``rules`` (scoring per variant, ``official`` and ``strict``),
``states`` (the states (mask, ν) and which are reachable), ``solver`` (backward induction for
Ẽ(mask, ν)), ``table`` (the Ẽ table file: encode, decode, the container the chunk files share),
``policy`` (the advisor's play as arrays, for batches of states), ``position`` (the position
format: the CLI's query and the page's URL), ``ranking`` (the one order and ranks of options, ties
included) and ``options`` (the ranked options of one position).

Imports: NumPy, the standard library and this layer only; every other layer builds on it.
"""
