"""The golden cases of the formats (tests/golden/format_cases.json) are what the package writes today.

The page's JavaScript copies of the formats are checked against these cases in
tests/browser/test_formats.py; this test makes sure the cases follow the package. When a format
changes on purpose, rewrite them: ``.venv/bin/python tests/golden/format_cases.py``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from format_cases import CASES, cases_json


def test_the_golden_format_cases_are_up_to_date() -> None:
    assert CASES.read_text() == cases_json(), "rewrite them: .venv/bin/python tests/golden/format_cases.py"
