"""The fuzz suite: every command that reads input, fed what a hostile user would feed it.

The promise (README): bad input exits with code 2 and one line on standard error, never a
traceback, and a command changes no file it was not asked to write. The strategies cover the
classes that once broke it: numbers of any length, deep nesting, invalid bytes, control and wide
characters, whitespace near-misses, huge sizes and special output paths. Commands run in-process
(Typer's CliRunner) in a scratch directory whose contents are compared before and after;
hypothesis runs few examples per command, so the suite stays fast on a shared machine.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_checks import counting_work
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView

runner = CliRunner()

START = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -"
"""NOTATION.md's example position."""
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
"""NOTATION.md's example view."""
HAND = "C19S345M2789T189"
"""A dealt hand of 12 cards."""
ENDGAME = "C5S12T4/C37S39/C126M1 2 2 5,1,2 S678M2569T2356789 -"
"""The README's endgame: solved in a moment."""
EXAMPLE_RECORD = Path(__file__).resolve().parent.parent / "examples" / "deal-175.json"
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "win.json"
HUGE = "1" * 5000
"""A number longer than Python's 4,300-digit int-string limit."""

LINE_MAX = 400
"""The longest error line accepted: an error quotes an excerpt, never the whole input."""


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and modification time (what a command may not change)."""
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = Path(dirpath) / f
            st_ = p.lstat()
            out[str(p.relative_to(root))] = (st_.st_size, st_.st_mtime_ns)
    return out


def invoke(args: list[str], input: bytes | str | None = None) -> Any:
    """Run ``lukfu ARGS`` in-process."""
    return runner.invoke(app, args, input=input)


def assert_refused(result: Any, *needles: str, code: int = 2) -> str:
    """Exit ``code``, nothing on stdout, one short ``error:`` line on stderr, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.stdout[:500], result.stderr[:500], result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stdout == "", result.stdout[:500]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[:2000]
    line = lines[0]
    assert line.startswith("error: ") and len(line) <= LINE_MAX, line[:LINE_MAX]
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in line, line
    return line


def assert_clean(result: Any) -> None:
    """Either success or a clean refusal: never a traceback or an unhandled exception."""
    if result.exit_code == 0:
        assert result.exception is None
    else:
        assert_refused(result)


@pytest.fixture(autouse=True)
def time_limit() -> Any:
    """Fail, never hang: a command still running after 60 s raises TimeoutError inside it."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError("the command ran for over 60 s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch working directory holding a record and a puzzle file."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLE_RECORD, tmp_path / "rec.json")
    shutil.copy(PUZZLES, tmp_path / "puz.json")
    return tmp_path


# ---------------------------------------------------------------- strategies

digits_any_length = st.integers(min_value=1, max_value=20_000).map(lambda n: "9" * n)
control_chars = st.sampled_from(["\t", "\n", "\r", "\x00", "\x1b", "\x7f", "\u202e", "\u200b", "\u3000", "\x0b"])
wide_chars = st.sampled_from(["Ｃ", "１", "六", "٣", "²", "é", "\U0001f600"])
surrogates = st.sampled_from(["\udcff", "\udc80", "\ud800"])


@st.composite
def hostile_variant(draw: st.DrawFn, base: str) -> str:
    """``base`` damaged the way a hostile user would: a character inserted, a field swapped for
    a huge number, whitespace doubled or changed, a huge length."""
    kind = draw(st.sampled_from(["insert", "number", "space", "huge", "text"]))
    if kind == "text":
        return draw(st.text(max_size=80))
    if kind == "huge":
        return base + draw(st.sampled_from(["", " ", ","])) + "C" * draw(st.integers(10_000, 300_000))
    fields = base.split(" ")
    i = draw(st.integers(0, len(fields) - 1))
    if kind == "number":
        fields[i] = draw(digits_any_length)
        return " ".join(fields)
    if kind == "space":
        sep = draw(st.sampled_from(["  ", "\t", "\n", " \r"]))
        return sep.join(fields) if draw(st.booleans()) else " ".join(fields) + draw(st.sampled_from([" ", "\n", "\t"]))
    ch = draw(control_chars | wide_chars | surrogates)
    at = draw(st.integers(0, len(base)))
    return base[:at] + ch + base[at:]


FEW = settings(max_examples=max(12, settings.default.max_examples // 10))
"""Few examples a command (12 in CI; HYPOTHESIS_PROFILE=thorough gives 100)."""


def without_line_end(text: str) -> str:
    """``text`` less one final line break, which ends a line and is no part of it (docs/limits.md)."""
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


# ---------------------------------------------------------------- parsers (library)


@pytest.mark.slow
@pytest.mark.parametrize("parse,base", [(Position.parse, START), (SeatView.parse, VIEW)], ids=["position", "view"])
@FEW
@given(data=st.data())
def test_line_parsers(parse: Any, base: str, data: st.DataObject) -> None:
    text = data.draw(hostile_variant(base))
    try:
        parsed = parse(text)
    except NotationError as e:
        assert "\n" not in str(e) and len(str(e)) <= LINE_MAX
    else:  # accepted only when it is the canonical text of a valid line
        assert str(parsed) == without_line_end(text)


@FEW
@given(hostile_variant("xC2M4") | st.text(max_size=30).map(lambda s: "x" + s) | digits_any_length.map("x".__add__))
def test_play_parser(text: str) -> None:
    try:
        Play.parse(text)
    except NotationError as e:
        assert "\n" not in str(e) and len(str(e)) <= LINE_MAX


def set_record_name(doc: dict, bad: str) -> None:
    """Give a record's first player a bad name."""
    doc["players"][0] = bad + "ann"


def set_puzzle_title(doc: dict, bad: str) -> None:
    """Give a collection's first puzzle a bad title."""
    doc["puzzles"][0]["title"] = bad + "title"


def read_record(text: str) -> None:
    """Read and replay a record."""
    GameRecord.loads(text).replay()


def read_puzzles(text: str) -> None:
    """Read a puzzle collection and parse every solution."""
    from lukfu_solver.puzzles.format import loads

    for puzzle in loads(text):
        puzzle.line()


DOCUMENTS = {
    "record": (EXAMPLE_RECORD, set_record_name, "plays", read_record),
    "puzzles": (PUZZLES, set_puzzle_title, "puzzles", read_puzzles),
}
"""The JSON documents users give: a valid example, how to damage a name in it, a list to blow up,
and the reader."""


@st.composite
def hostile_document(draw: st.DrawFn, kind_of_file: str) -> str:
    """A valid document damaged: a key's value beside a huge number, deep nesting, a bad name, a
    misspelt key, a huge list or a non-finite or negative number."""
    path, set_name, list_key, _read = DOCUMENTS[kind_of_file]
    doc = json.loads(path.read_text())
    key = draw(st.sampled_from(sorted(doc)))
    kind = draw(st.sampled_from(["number", "nest", "name", "key", "list", "float"]))
    text = json.dumps(doc)
    if kind == "number":
        return text.replace(f'"{key}": ', f'"{key}": {draw(digits_any_length)}, "x{key}": ', 1)
    if kind == "nest":
        depth = draw(st.integers(21, 100_000))
        return text.replace(f'"{key}": ', f'"{key}": {"[" * depth}{"]" * depth}, "x{key}": ', 1)
    if kind == "name":
        set_name(doc, draw(control_chars | surrogates))
    elif kind == "key":
        doc[key + "s"] = doc.pop(key)
    elif kind == "list":
        doc[list_key] = doc[list_key] * draw(st.integers(2, 2_000))
    else:
        doc[key] = draw(st.sampled_from([1e308 * 10, float("nan"), -1]))
    return json.dumps(doc)


@pytest.mark.slow
@pytest.mark.parametrize("kind_of_file", sorted(DOCUMENTS))
@FEW
@given(data=st.data())
def test_json_readers(kind_of_file: str, data: st.DataObject) -> None:
    text = data.draw(hostile_document(kind_of_file))
    try:
        DOCUMENTS[kind_of_file][3](text)
    except NotationError as e:
        assert "\n" not in str(e) and len(str(e)) <= LINE_MAX
    else:
        raise AssertionError("a damaged document was accepted")


# ---------------------------------------------------------------- commands: arguments


TEXT_COMMANDS = [
    (["legal"], START),
    (["show"], START),
    (["solve", "--max-nodes", "1000"], START),
    (["apply"], START),
    (["show", "--view"], VIEW),
    (["sample", "--count", "1", "--seed", "1"], VIEW),
    (["advise", "--seat", "0"], HAND),
    (["analyse", "--samples", "2"], VIEW),
    (["analyse", "--seat", "0"], HAND),
    (["apply", START], "T2"),
    (["puzzle", "solve"], ENDGAME),
]
"""Commands that read a text argument, and the valid text the strategy damages."""


@pytest.mark.slow
@pytest.mark.parametrize("command,base", TEXT_COMMANDS, ids=lambda c: c[0] if isinstance(c, list) else None)
@FEW
@given(data=st.data())
def test_commands_taking_a_text(command: list[str], base: str, data: st.DataObject) -> None:
    text = data.draw(hostile_variant(base))
    if without_line_end(text) != base and not (base == HAND and text.strip(" ") == HAND):
        assert_refused(invoke([*command, text]))  # (a card list may have spaces around, NOTATION.md)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", HUGE],
        ["deal", "--seed", "-7"],
        ["deal", "--seed", str(2**63)],
        ["deal", "--caller", HUGE],
        ["sample", VIEW, "--count", HUGE],
        ["sample", VIEW, "--count", str(10**12)],
        ["sample", VIEW, "--seed", "-1"],
        ["solve", ENDGAME, "--max-nodes", str(2**63)],
        ["solve", ENDGAME, "--max-nodes", HUGE],
        ["solve", ENDGAME, "--max-nodes", "0"],
        ["match", "--players", "random,random,random", "--deals", "100000000"],
        ["match", "--players", "random,random,random", "--deals", HUGE],
        ["match", "--players", "random,random,random", "--seed", "-3", "--deals", "1"],
        ["match", "--players", "random,random,random", "--jobs", "100000", "--deals", "1"],
        ["analyse", VIEW, "--samples", str(10**12)],
        ["analyse", VIEW, "--seed", HUGE],
        ["advise", HAND, "--seat", HUGE],
        ["puzzle", "generate", "--count", str(10**9)],
        ["puzzle", "generate", "--seed", "-1", "--count", "1"],
        ["puzzle", "generate", "--max-deals", HUGE],
    ],
    ids=lambda a: " ".join(x[:12] for x in a),
)
def test_numeric_options_are_bounded(args: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = tree(scratch)
    with counting_work(monkeypatch) as work:
        assert_refused(invoke(args))
    assert not work, f"a refusal must come before any work, but it started {dict(work)}"
    assert tree(scratch) == before


NUMERIC_OPTIONS = [
    (["deal"], "--seed"),
    (["deal"], "--caller"),
    (["sample", VIEW], "--count"),
    (["sample", VIEW], "--seed"),
    (["solve", ENDGAME], "--max-nodes"),
    (["solve", ENDGAME], "--time"),
    (["solve", ENDGAME], "--threads"),
    (["analyse", VIEW], "--samples"),
    (["analyse", VIEW], "--seed"),
    (["advise", HAND, "--seat", "0"], "--seed"),
    (["puzzle", "generate"], "--seed"),
    (["advise", HAND], "--seat"),
    (["match", "--players", "random,random,random"], "--deals"),
    (["match", "--players", "random,random,random", "--deals", "1"], "--jobs"),
    (["puzzle", "generate"], "--count"),
    (["play"], "--seed"),
    (["play"], "--level"),
]
hostile_numbers = st.integers(min_value=25, max_value=20_000).map(lambda n: "9" * n) | st.sampled_from(
    ["-1", "-" + HUGE, "1e9", "nan", "-inf", "", "0x10", "\udcff", str(2**64)]
)
"""Values no numeric option takes. (Option values are read by Typer, with Python's ``int()``:
surrounding spaces, ``_`` and other scripts' digits pass there, then the range applies.)"""


@pytest.mark.slow
@pytest.mark.parametrize("command,option", NUMERIC_OPTIONS, ids=lambda x: x if isinstance(x, str) else x[0])
@settings(max_examples=max(6, settings.default.max_examples // 20))
@given(value=hostile_numbers)
def test_hostile_numbers_in_options(command: list[str], option: str, value: str) -> None:
    if option == "--time" and (value == "1e9" or value.isdigit()):
        return  # a long time limit is a valid one
    assert_refused(invoke([*command, option, value], input=""))


def test_puzzles_are_small_positions(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = json.loads(PUZZLES.read_text())
    doc["puzzles"][0]["position"] = START
    f = write(scratch / "big.json", json.dumps(doc))
    with counting_work(monkeypatch) as work:
        assert_refused(invoke(["puzzle", "solve", START]), "12 cards a hand")
        for command in (["puzzle", "check"], ["puzzle", "show"], ["puzzle", "solve"]):
            assert_refused(invoke([*command, str(f)]), "12 cards a hand")
    assert not work, f"a full deal must be refused before any solve, but it started {dict(work)}"


def test_the_work_counter_sees_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count the refusals above rest on can fail: commands that do work are seen doing it."""
    with counting_work(monkeypatch) as work:
        assert invoke(["deal", "--seed", "1"]).exit_code == 0
        assert invoke(["sample", VIEW, "--count", "1", "--seed", "1"]).exit_code == 0
        assert invoke(["solve", ENDGAME, "--max-nodes", "1000"]).exit_code == 0
        assert invoke(["match", "--players", "random,random,random", "--deals", "1"]).exit_code == 0
    assert work["deals"] >= 2 and work["samplers"] >= 1 and work["solvers"] >= 1, dict(work)


def test_usage_errors_are_one_line_too() -> None:
    for args in (["--bogus"], ["nosuch"], ["deal", "--seed", "abc"], ["replay"], ["puzzle", "nosuch"]):
        assert_refused(invoke(args), "--help")


# ---------------------------------------------------------------- commands: files


def write(path: Path, text: str | bytes) -> Path:
    """Write a scratch input file."""
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["replay"], ["puzzle", "show"], ["puzzle", "check"], ["puzzle", "solve"], ["puzzle", "play"]],
    ids=" ".join,
)
@pytest.mark.parametrize(
    "content,needle",
    [
        ("[" * 100_000, "nested more than"),
        ('{"format": "lukfu-record/1", "seed": ' + HUGE + "}", "too long"),
        (b'{"format": "\xff\xfe"}', "0xff"),
        ('{"players": ["\\udcff"]}', "surrogate"),
        ("x" * (17 << 20), "larger than"),
        ("", ""),
        ("{", "not valid JSON"),
    ],
    ids=["deep", "huge-number", "bytes", "surrogate", "huge-file", "empty", "truncated"],
)
def test_files_that_are_read(command: list[str], content: str | bytes, needle: str, scratch: Path) -> None:
    f = write(scratch / "bad.json", content)
    before = tree(scratch)
    assert_refused(invoke([*command, str(f)]), needle)
    assert tree(scratch) == before


@pytest.mark.parametrize("command", [["replay"], ["puzzle", "show"]], ids=" ".join)
@pytest.mark.parametrize("name", ["/dev/zero", "/dev/full", "missing.json", "."])
def test_special_input_paths(command: list[str], name: str, scratch: Path) -> None:
    if name.startswith("/dev/") and not os.path.exists(name):
        pytest.skip(f"no {name}")
    before = tree(scratch)
    assert_refused(invoke([*command, name]))
    assert tree(scratch) == before


def test_puzzle_files_refuse_unknown_keys(scratch: Path) -> None:
    doc = json.loads(PUZZLES.read_text())
    doc["puzzles"][0]["soluton"] = doc["puzzles"][0].pop("solution")
    f = write(scratch / "typo.json", json.dumps(doc))
    assert_refused(invoke(["puzzle", "show", str(f)]), "soluton")
    doc = json.loads(PUZZLES.read_text())
    doc["genrator"] = doc.pop("generator")
    f = write(scratch / "typo2.json", json.dumps(doc))
    assert_refused(invoke(["puzzle", "show", str(f)]), "genrator")


# ---------------------------------------------------------------- commands: batch input


BAD_LINES: list[bytes] = [
    b"\xff\xfe\xfd",
    b"C1 \xc3\x28 0 1 0,0,0 - -",
    START.replace("0,0,0", "0,0," + HUGE).encode(),
    START.replace(" ", "\t").encode(),
    START.replace(" ", "  ", 1).encode(),
    (START + " ").encode(),
    b"x" * (10 << 20),
    b"\x00" * 100,
]


@pytest.mark.slow
@pytest.mark.parametrize("command", [["legal"], ["apply"], ["solve", "--max-nodes", "1000"]], ids=" ".join)
def test_a_bad_batch_line_never_aborts_the_batch(command: list[str], scratch: Path) -> None:
    good = {"solve": ENDGAME, "apply": START + "\tT2"}.get(command[0], START).encode()
    data = b"\n".join([good, *BAD_LINES, good]) + b"\n"
    for source in ("-", "file"):
        if source == "file":
            write(scratch / "batch.txt", data)
        args = [*command, "--batch", "-" if source == "-" else "batch.txt"]
        result = invoke(args, input=data if source == "-" else None)
        assert result.exit_code == 0, (result.stderr[:500], result.exception)
        out = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(out) == len(BAD_LINES) + 2
        first, last = ({k: v for k, v in o.items() if k != "ms"} for o in (out[0], out[-1]))
        assert "error" not in first and first == last
        for n, obj in enumerate(out[1:-1], 2):
            assert obj["line"] == n and len(obj["error"]) <= LINE_MAX, obj
        assert max(len(line) for line in result.stdout.splitlines()) < 5000


@pytest.mark.parametrize(
    "args",
    [["play", "--seed", "1", "--seat", "0", "--opponents", "random"], ["puzzle", "play", str(PUZZLES)]],
    ids=lambda a: " ".join(a[:2]),
)
def test_interactive_commands_take_bad_bytes_as_bad_answers(args: list[str], scratch: Path) -> None:
    before = tree(scratch)
    result = invoke(args, input=b"\xff\xfe\n\x00\x1b[2J\n" + b"9" * 5000 + b"\n")
    assert result.exit_code == 0, (result.stderr[-500:], result.exception)
    assert result.exception is None and "Traceback" not in result.stderr
    assert tree(scratch) == before  # abandoned at the end of input: no record saved


# ---------------------------------------------------------------- commands: output files


@pytest.mark.parametrize("seed", [["--seed", "1"], []], ids=["seed", "no-seed"])
def test_play_record_path_is_checked_before_the_game(
    seed: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for target, needle in [
        ("nodir/game.json", "nodir/game.json"),
        ("/dev/full", "special file"),
        ("rec.json", "already exists"),
        (".", "directory"),
    ]:
        before = tree(scratch)
        with counting_work(monkeypatch) as work:
            result = invoke(["play", *seed, "--record", target], input="")
        assert_refused(result, needle)  # the only line: before the note of a chosen seed
        assert not work, f"the record path is checked before the deal, but it started {dict(work)}"
        assert tree(scratch) == before


@pytest.mark.parametrize("special", ["/dev/full", "link", "fifo", "dir"])
def test_puzzle_generate_refuses_special_outputs_at_once(
    special: str, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if special == "link":
        (scratch / "link").symlink_to(scratch / "target.json")
    elif special == "fifo":
        os.mkfifo(scratch / "fifo")
    elif special == "dir":
        (scratch / "dir").mkdir()
    elif not os.path.exists(special):
        pytest.skip(f"no {special}")
    before = tree(scratch)
    with counting_work(monkeypatch) as work:
        result = invoke(["puzzle", "generate", "--count", "1", "--seed", "1", "--out", special, "--force"])
    assert_refused(result, special)
    assert not work, f"a special output is refused before any deal is generated, but it started {dict(work)}"
    assert tree(scratch) == before
    assert not (scratch / "target.json").exists()


def test_puzzle_generate_keeps_the_users_tmp_file(scratch: Path) -> None:
    write(scratch / "out.json.tmp", "precious")
    result = invoke(
        [
            "puzzle",
            "generate",
            "--count",
            "1",
            "--seed",
            "3",
            "--min-cards",
            "3",
            "--max-cards",
            "3",
            "--out",
            "out.json",
        ]
    )
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert (scratch / "out.json.tmp").read_text() == "precious"
    assert json.loads((scratch / "out.json").read_text())["puzzles"]
    assert sorted(p.name for p in scratch.iterdir()) == ["out.json", "out.json.tmp", "puz.json", "rec.json"]


def race(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, appearing: Path) -> None:
    """Make ``module.name`` (the long work of a command) create ``appearing`` as it returns: a
    file that appears at the output path while the command works."""
    real = getattr(module, name)

    def work_then_race(*args: Any, **kwargs: Any) -> Any:
        done = real(*args, **kwargs)
        write(appearing, "theirs")
        return done

    monkeypatch.setattr(module, name, work_then_race)


def error_lines(result: Any) -> list[str]:
    """The ``error:`` lines of a command's stderr (a terminal command also prints notes)."""
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def test_a_file_that_appears_during_generation_is_kept(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import lukfu_solver.puzzles as P

    race(monkeypatch, P, "generate", scratch / "out.json")
    args = ["puzzle", "generate", "--count", "1", "--seed", "3", "--min-cards", "3", "--max-cards", "3"]
    result = invoke([*args, "--out", "out.json"])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert error_lines(result) == [
        "error: out: out.json already exists; use --force to overwrite it; "
        "the collection is written on standard output instead"
    ]
    assert (scratch / "out.json").read_text() == "theirs"
    assert json.loads(result.stdout)["puzzles"]  # the work is not lost


def test_a_record_is_never_lost(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import lukfu_cli.play_cmd as P

    race(monkeypatch, P, "play_one", scratch / "mine.json")
    args = ["play", "--seed", "1", "--seat", "0", "--opponents", "random", "--record", "mine.json"]
    result = invoke(args, input="1\n" * 80)
    assert result.exit_code == 2, (result.stderr[-500:], result.exception)
    assert error_lines(result) == [
        "error: record: mine.json already exists; use --force to overwrite it; the record is saved to lukfu-1.json instead"
    ]
    assert (scratch / "mine.json").read_text() == "theirs"
    GameRecord.load(scratch / "lukfu-1.json").replay()


def test_match_records_refuse_a_special_directory(scratch: Path) -> None:
    result = invoke(["match", "--players", "random,random,random", "--deals", "1", "--records", "/dev/null"])
    assert_refused(result, "not a directory")


# ---------------------------------------------------------------- signals


@pytest.mark.slow
def test_sigterm_to_a_parallel_match_prints_no_tracebacks(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lukfu_cli",
            "match",
            "--players",
            "rule,random,random",
            "--deals",
            "200000",  # minutes of work: 2,000 deals of these players end in about 3 s on a quiet machine
            "--jobs",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    try:
        _out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text and "BrokenPipeError" not in text, text[:3000]
    assert len(text.splitlines()) <= 2, text[:3000]
    assert proc.returncode in (143, -signal.SIGTERM)
