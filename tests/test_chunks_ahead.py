"""The chunks fetched ahead (``goal.chunks_ahead``, ``api.chunks_ahead_query``): every chunk the
next decision reads, after any one category scored by me or by the rival, is among them, soonest
first; none without a goal."""

import pytest
from yacht.api import advise_query, chunks_ahead_query
from yacht.core.position import format_query, parse_query
from yacht.core.rules import possible_scores
from yacht.loader import DEFAULT_TABLES, Tables

POSITIONS = [
    "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,",
    "s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,",
    "s=3,6,9,12,,18,22,,,,30,&d=12256&r=3&v=strict&o=2,4,6,8,10,,22,,,15,,",
    "s=3,6,9,12,,18,,,,,30,&d=55561&r=2&t=150",
]


class Recording(Tables):
    """The tables, recording every chunk an answer reads."""

    def __init__(self) -> None:
        super().__init__(DEFAULT_TABLES)
        self.read: set[tuple[str, int]] = set()

    def chunks_of(self, variant, wanted):
        self.read |= {(q, m) for q, masks in wanted.items() for m in masks}
        return super().chunks_of(variant, wanted)


def filled(sheet: tuple, category: int, variant) -> tuple:
    """``sheet`` with ``category`` given its lowest possible score."""
    low = possible_scores(variant)[category][0]
    return tuple(low if i == category else v for i, v in enumerate(sheet))


def next_decisions(query: str) -> list[str]:
    """My next turn's positions: one category of mine scored (its lowest) and, with a rival, one of theirs."""
    position = parse_query(query)
    later = []
    for c in (c for c, v in enumerate(position.sheet) if v is None):
        mine = position._replace(sheet=filled(position.sheet, c, position.variant), roll=1)
        if position.opponent is None:
            later.append(mine)
            continue
        for d in (d for d, v in enumerate(position.opponent) if v is None):
            later.append(mine._replace(opponent=filled(position.opponent, d, position.variant)))
    return [format_query(p) for p in later if None in p.sheet]


@pytest.mark.parametrize("query", POSITIONS)
def test_every_chunk_the_next_decision_reads_was_fetched_ahead(query) -> None:
    ahead = {(quantity, mask) for quantity, mask, _ in chunks_ahead_query(query)["chunks"]}
    assert ahead, query
    for later in next_decisions(query):
        tables = Recording()
        advise_query(later, tables)
        assert tables.read <= ahead, (later, sorted(tables.read - ahead))


def test_the_soonest_come_first_and_none_without_a_goal() -> None:
    at_my_turn = chunks_ahead_query(POSITIONS[1])["chunks"]
    assert len({tuple(p) for p in at_my_turn}) == len(at_my_turn)  # each once
    assert all(name == f"{mask:03x}.chunk" for _, mask, name in at_my_turn)
    # At my turn, my positions one category later first: the rival's law as it stands (their
    # mask 1098: Deuces, Fours, Choice, B.Straight), then mine of masks with 6 categories filled.
    assert at_my_turn[0] == ["law", 1098, "44a.chunk"]
    assert bin(at_my_turn[1][1]).count("1") == 6
    # A record whose rival plays next (my turn 1 scored, theirs to come): their positions one
    # category later first, the first chunk their law after one category of theirs.
    their_turn = chunks_ahead_query("h=14466-4466-24466g&oh=", True)["chunks"]
    assert their_turn[0][:2] == ["law", 1]
    assert chunks_ahead_query("s=3,,9,,,18,,,,,30,&d=14466&r=2")["chunks"] == []
    assert chunks_ahead_query("s=1,2,3,4,5,6,20,0,0,,30,&d=12346&r=1&o=2,4,6,8,10,12,22,0,0,15,,0")["chunks"] == []
