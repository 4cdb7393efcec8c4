"""The command-line advisor with hostile, malformed and near-valid input: every case gets an
answer or a one-line message, never a traceback, never a control character on stderr."""

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from conftest import ROOT, TABLES
from hypothesis import given, settings
from hypothesis import strategies as st
from yacht.cli.main import main

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def call(*argv: str, stdin: str = "", env_tables: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """``python -m yacht`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as e:  # argparse's usage errors
                status = e.code
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "yacht", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )


@pytest.mark.parametrize("command", ["advise", "review"])
def test_whitespace_around_a_strict_query_loads_the_strict_table(command):
    """Once: KeyError 'no table loaded for the strict rules' (the variant was read twice, differently)."""
    query = " d=12345&r=1&v=strict " if command == "advise" else "h=12345a&v=strict "
    status, out, err = call(command, "--json", "--tables", str(TABLES), query)
    assert (status, err) == (0, "")
    assert json.loads(out)["variant"] == "strict"


@pytest.mark.parametrize(
    ("query", "shown"),
    [("%0A=1", r"'\n'"), ("%1B[2J%1B[31mRED=1", r"'\x1b[2J\x1b[31mRED'"), ("%E2%80%AE=1", r"'\u202e'")],
)
def test_unknown_parameter_names_are_quoted_not_echoed_raw(query, shown):
    status, out, err = call("advise", "--tables", str(TABLES), query)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and not CONTROL.search(err)
    assert f"query: unknown parameter {shown} (known: s, d, r, v, o, t)" in err


def test_a_query_that_starts_with_a_dash_is_a_query_not_an_option():
    result = run("advise", "--json", "-1?d=12345&r=1")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["query"] == "s=,,,,,,,,,,,&d=12345&r=1"
    unknown = run("advise", "--jsno", "r=0")
    assert unknown.returncode == 2 and "'--jsno'" in unknown.stderr and "Traceback" not in unknown.stderr


def test_json_from_stdin_gives_one_line_per_input_line_in_order():
    lines = ["d=12345&r=1", "", "  ", "bad", "x=1", "r=0&v=strict", "s=6,,,,,,,,,,,"]
    status, out, err = call("advise", "--json", "--tables", str(TABLES), "-", stdin="\n".join(lines) + "\n")
    assert status == 2
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)
    assert [("error" in a) for a in answers] == [False, True, True, True, True, False, True]
    assert [a["query"] for a in answers if "error" in a] == ["", "  ", "bad", "x=1", "s=6,,,,,,,,,,,"]
    assert answers[6]["error"]["field"] == "s"
    assert "line 4: 'bad': query: 'bad' is not name=value" in err


def test_a_fragment_is_not_a_query():
    status, out, _ = call("advise", "--json", "--tables", str(TABLES), "http://x/#frag?d=11111&r=1")
    assert status == 0 and json.loads(out)["query"] == "s=,,,,,,,,,,,&r=0"
    status, out, _ = call("advise", "--json", "--tables", str(TABLES), "http://x/?d=11111&r=1#d=22222")
    assert status == 0 and json.loads(out)["query"] == "s=,,,,,,,,,,,&d=11111&r=1"


def test_a_full_sheet_has_no_roll_to_advise_on():
    status, _, err = call("advise", "--tables", str(TABLES), "s=1,2,3,4,5,6,7,8,9,15,30,50&d=12345&r=3")
    assert status == 2
    assert "r: the sheet is full (the game is over): there is no roll 3 to advise on" in err


def test_counts_in_messages_agree_with_their_number():
    assert "got 1 character in '1'" in call("advise", "--tables", str(TABLES), "d=1&r=1")[2]
    assert "got 4 characters in '1234'" in call("advise", "--tables", str(TABLES), "d=1234&r=1")[2]


def test_a_keep_of_six_dice_is_called_what_it_is():
    _, _, err = call("review", "--tables", str(TABLES), "h=12345-123456-12345a")
    assert "keep '123456' has 6 dice; a roll has 5" in err


def test_empty_tables_folder_is_an_error_not_the_current_folder():
    env = {"PATH": "/usr/bin:/bin", "YACHT_TABLES": ""}
    result = run("advise", "r=0", env=env)
    assert result.returncode == 2
    assert result.stderr == "error: YACHT_TABLES is set but empty: name the folder of the tables, or unset it\n"
    status, _, err = call("advise", "--tables", "", "r=0")
    assert status == 2 and "--tables: is empty" in err


def test_a_table_of_the_wrong_variant_in_the_folder_is_refused(tmp_path):
    (tmp_path / "yacht-official.table").write_bytes((TABLES / "yacht-strict.table").read_bytes())
    status, out, err = call("advise", "--tables", str(tmp_path), "d=66666&r=3")
    assert status == 1 and out == ""
    assert "holds the strict table, expected official" in err


# Fuzzing -------------------------------------------------------------------------------

_near_valid = st.lists(
    st.sampled_from(["s=", "d=", "r=", "v=", "h=", "o=", "%", "%0A", "&", "=", "?", "#", "-", ".", ",", " "])
    | st.sampled_from(["3,,9,,,18,,,,,30,", "14466", "12345", "66666", "1", "2", "3", "strict", "official"])
    | st.sampled_from(["12345-1-12345a", "14466-4466-24466g.12356-6-16663-666-66634f", "a", "l", "123456"])
    | st.text(max_size=3),
    max_size=8,
).map("".join)
_queries = st.text(max_size=40) | _near_valid


def _check_output(status: int, out: str, err: str, n_queries: int | None = None) -> None:
    assert status in (0, 1, 2)
    assert "Traceback" not in err and not CONTROL.search(err.replace("\n", ""))
    if n_queries is not None and status != 1:
        lines = out.splitlines()
        assert len(lines) == n_queries
        assert all(isinstance(json.loads(line), dict) for line in lines)


@settings(max_examples=300)
@given(
    command=st.sampled_from(["advise", "review"]),
    queries=st.lists(_queries.filter(lambda q: q != "-"), min_size=1, max_size=3),  # "-" alone reads stdin
)
def test_fuzzed_arguments_give_answers_or_messages_never_a_traceback(command, queries):
    status, out, err = call(command, "--json", "--tables", str(TABLES), "--", *queries)
    _check_output(status, out, err, n_queries=len(queries))


@settings(max_examples=200)
@given(command=st.sampled_from(["advise", "review"]), lines=st.lists(_queries, min_size=1, max_size=4))
def test_fuzzed_stdin_gives_one_json_line_per_input_line(command, lines):
    lines = [line.replace("\r", "").replace("\n", "") for line in lines]
    stdin = "".join(line + "\n" for line in lines)
    status, out, err = call(command, "--json", "--tables", str(TABLES), "-", stdin=stdin)
    _check_output(status, out, err, n_queries=len(lines))


@settings(max_examples=100)
@given(command=st.sampled_from(["advise", "review"]), argv=st.lists(st.text(max_size=12) | _near_valid, max_size=4))
def test_fuzzed_argument_lists_in_text_mode_never_crash(command, argv):
    status, _, err = call(command, "--tables", str(TABLES), *argv)
    _check_output(status, "", err)
