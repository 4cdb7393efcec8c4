"""Shared fixtures: float64 solves of both variants and the shipped tables."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from yacht.rules import VARIANTS
from yacht.solver import solve
from yacht.table import Table, decode, file_name

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "public" / "tables"

settings.register_profile("default", deadline=None, max_examples=100)
settings.load_profile("default")


@pytest.fixture(scope="session")
def solved() -> dict[str, np.ndarray]:
    """Ẽ of each variant from a float64 solve in this process (in-process, no fork)."""
    return {name: solve(variant, workers=1) for name, variant in VARIANTS.items()}


@pytest.fixture(scope="session")
def shipped() -> dict[str, Table]:
    """The tables in public/tables (``make tables`` writes them; ``make test`` does it first)."""
    tables = {}
    for name in VARIANTS:
        path = TABLES / file_name(name)
        if not path.exists():
            pytest.fail(f"{path} is missing: run `make tables` (or `python -m build_table`) first")
        tables[name] = decode(path.read_bytes(), source=str(path), variant=name)
    return tables
