"""The command-line advisor, run as a user would: python -m yacht advise …"""

import json
import subprocess
import sys

import pytest
from conftest import ROOT, TABLES
from yacht.api import advise_query


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "yacht", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60
    )


def test_text_output_ranks_every_keep_with_its_loss():
    result = run("advise", "s=3,,9,,,18,,,,,30,&d=14466&r=2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "s=3,,9,,,18,,,,,30,&d=14466&r=2  [official]"
    assert lines[1].startswith("Score now 60, expected final score 183.6")
    rows = lines[3:]
    assert len(rows) == 18  # distinct sub-multisets of 1 4 4 6 6
    assert rows[0].split()[-1] == "best"
    assert any("= score Choice (21)" in row for row in rows)
    assert all(row.split()[-1].startswith("−") for row in rows[1:])


def test_json_output_has_one_object_per_query_sorted_best_first(shipped):
    queries = ["d=14466&r=1", "s=,,,,,,,,,,,&d=66612&r=3&v=strict", "r=0"]
    result = run("advise", "--json", *queries)
    assert result.returncode == 0, result.stderr
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 3
    for query, obj in zip(queries, objects, strict=True):
        assert obj == json.loads(json.dumps(advise_query(query, shipped)))
        values = [o["expected"] for o in obj["options"]]
        assert values == sorted(values, reverse=True)
    assert all(set(o) >= {"expected", "loss", "keep"} for o in objects[0]["options"])
    assert all(set(o) >= {"expected", "loss", "category", "points"} for o in objects[1]["options"])
    assert objects[2]["expected"] == pytest.approx(191.774369, abs=1e-5) and objects[2]["options"] == []


def test_queries_from_stdin_one_json_line_each_blank_lines_answered_with_an_error():
    result = run("advise", "--json", "-", stdin="d=12345&r=1\n\nr=0&v=strict\n")
    assert result.returncode == 2
    assert "line 2: '': query: blank line" in result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert json.loads(lines[1]) == {
        "query": "",
        "error": {"field": "query", "message": "query: blank line (a new game before its first roll is r=0)"},
    }
    del lines[1]
    assert json.loads(lines[0])["options"][0] == {
        "expected": json.loads(lines[0])["expected"],
        "loss": 0.0,
        "rank": 1,
        "keep": [1, 2, 3, 4, 5],
        "category": 10,
        "points": 30,
    }
    assert json.loads(lines[1])["variant"] == "strict"


def test_bad_input_gives_a_message_and_a_nonzero_exit_but_answers_the_rest():
    result = run("advise", "--json", "s=6,,,,,,,,,,,", "d=12345&r=3")
    assert result.returncode == 2
    assert "s: field 1 (Aces): Aces cannot score 6" in result.stderr
    assert "Traceback" not in result.stderr
    error, answer = map(json.loads, result.stdout.splitlines())
    assert error["query"] == "s=6,,,,,,,,,,," and error["error"]["field"] == "s"
    assert error["error"]["message"].startswith("s: field 1 (Aces): Aces cannot score 6")
    assert answer["query"] == "s=,,,,,,,,,,,&d=12345&r=3"


def test_full_sheet_prints_the_final_score():
    result = run("advise", "s=1,2,3,4,5,6,7,8,9,15,30,50")
    assert result.returncode == 0
    assert "Game over: final score 140" in result.stdout


def test_missing_table_folder_is_reported(tmp_path):
    result = run("advise", "--tables", str(tmp_path), "r=0")
    assert result.returncode == 1
    assert "cannot read the official table" in result.stderr and "build_table" in result.stderr
    assert "Traceback" not in result.stderr


def test_corrupt_table_file_is_reported_not_used(tmp_path):
    data = bytearray((TABLES / "yacht-official.table").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / "yacht-official.table").write_bytes(bytes(data))
    result = run("advise", "--tables", str(tmp_path), "d=12345&r=1")
    assert result.returncode == 1
    assert "checksum mismatch" in result.stderr
    assert result.stdout == ""


def test_usage_errors_are_argparse_messages():
    result = run("advise")
    assert result.returncode == 2
    assert "usage:" in result.stderr and "Traceback" not in result.stderr
