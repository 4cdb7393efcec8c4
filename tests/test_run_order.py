"""The order ``make test`` and ``make test-slow`` hand modules to their two workers in
(``conftest.LONGEST_FIRST``, ``conftest.SLOWEST_FIRST``): every module named exists, once, and
each one run first by the slow tests holds slow tests (a name that matches nothing would leave a
long module to start last, and nothing would say so)."""

import re

from conftest import LONGEST_FIRST, ROOT, SLOWEST_FIRST


def test_every_module_run_first_exists_once_and_the_slow_ones_hold_slow_tests():
    for order in (LONGEST_FIRST, SLOWEST_FIRST):
        assert len(set(order)) == len(order)
        for module in order:
            assert (ROOT / module).is_file(), module
    for module in SLOWEST_FIRST:
        text = (ROOT / module).read_text()
        assert re.search(r"pytest\.mark\.slow\b", text), module
