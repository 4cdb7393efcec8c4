"""The chances layer: distributions of the final score and chances of a goal.

``outcome`` (the exact final-score distribution under the advisor's play), ``winning`` (the
exact backward induction that plays to win or to reach a score), ``spread`` (the sd of the
points still to come, for the approximation beyond the exact range), ``reach`` (R over every
state), ``law`` (the law S of the points still to come over every state), ``reach_table`` (their
chunk files), ``simulate`` (turns played with real dice, vectorized across games),
``reach_play`` (the final-score histogram when playing for a score to reach), ``goal`` (the
advice with an opponent's sheet, ``o=``, or a score to reach, ``t=``), ``opponent`` (the
opponent's law behind ``o=``), ``calibration`` (the fitted blend and calibration of a win chance
beyond the exact range), ``average_distribution`` (the final-score distribution under the
best-average play), ``coach`` (what an option plays for, the bonus chance and category
expectations after it, why the best beats another) and ``coach_table`` (its files).

Imports: ``core`` and this layer, never ``play`` or the edges. ``simulate`` imports only
``core`` and could sit there, but it is here because it is a way of getting chances (the sampled
distribution where the exact one is too slow) and ``goal`` and ``reach_play`` need it: the
lowest layer of its users that keeps every import downward is this one (``play.duel`` uses it
too, from above).
"""
