"""Exact expected-score advice for Yacht (Clubhouse Games: 51 Worldwide Classics).

NumPy is the package's only dependency; the same code runs on CPython and in Pyodide. Its
folders are its layers, listed here in import order: a module imports from its own layer and
the layers listed before it, never from a later one (``tests/test_package_layers.py`` checks
every import, those inside functions included):

    core/      the game and its exact expected-score advice: categories, dice, rules, states,
               solver, table (the Ẽ file format), policy, position, ranking, options
    chances/   distributions and chances: of the final score, of winning against an opponent's
               sheet, of reaching a score (outcome, winning, spread, reach, law, reach_table,
               simulate, reach_play, opponent, calibration, goal, average_distribution)
    play/      whole games: record (a game record's parts), replay (where a record stops being
               legal), game (the record format), same_game, practice_dice, practice, graded,
               review, duel
    loader     the edges, in this folder: ``loader`` reads the table files (the package's only
    api        I/O below the command line), ``api`` turns a query into the JSON-ready answer
               for the browser worker and the command line
    cli/       the command line, ``python -m yacht`` (``__main__``)

Nothing in core/, chances/ or play/ reads files, the network or the clock.
"""

__version__ = "0.1.0"
