"""``lukfu puzzle`` as a solver sees it: ``puzzle play`` wrapped by words at 80 columns in a real
terminal, a failure told from the solving side, a first hint that tells the right move from the
other legal moves alike, ``puzzle show DIR`` with every id whole at 60, 80 and 120 columns, the
README naming only files that exist, and ``puzzle generate`` on a terminal saving a file it says
how to play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from screens import LUKFU, Screen, cells, flat, needs_tmux
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.puzzle_play import move_hint
from lukfu_solver import puzzles as P
from lukfu_solver.i18n import using_language
from lukfu_solver.plays import CLAIM

ROOT = Path(__file__).resolve().parent.parent
COLLECTION = ROOT / "puzzles"
runner = CliRunner()


def test_a_failure_is_told_from_the_solving_side() -> None:
    # the non-callers solve a `most` puzzle whose best is the caller losing 6
    assert P.goal_failure("most", -4, -6) == "the caller loses only 4 points instead of 6"
    assert P.goal_failure("most", 0, -6) == "the caller loses nothing instead of 6 points"
    assert P.goal_failure("most", 2, -6) == "the caller wins 2 points instead of losing 6"
    # the caller solves
    assert P.goal_failure("most", 2, 4) == "the caller wins only 2 points instead of 4"
    assert P.goal_failure("most", -1, 4) == "the caller loses 1 point instead of winning 4"
    assert P.goal_failure("win", -4, 2) == "the caller loses 4 points: no win"
    assert P.goal_failure("win", 0, 2) == "nobody scores: no win for the caller"
    assert P.goal_failure("stop", 1, 0) == "the caller still wins 1 point"
    with using_language("ru"):
        assert "4" in P.goal_failure("most", -4, -6) and "caller" not in P.goal_failure("most", -4, -6)


def decisions() -> list[tuple[str, object, object]]:
    """Every decision of the shipped puzzles: (id, position, the right move)."""
    found = []
    for puzzle in P.load_dir(COLLECTION):
        an = P.analyse(puzzle.pos(), puzzle.goal, line=puzzle.line())
        for pos, step in P.line_positions(an):
            if step.role == P.SOLVE:
                found.append((puzzle.id, pos, step.move))
    return found


def test_the_first_hint_tells_the_move_from_every_other_legal_move() -> None:
    told_apart = 0
    for pid, pos, move in decisions():
        legal = list(pos.legal_moves())
        hints = {m: move_hint(pos, m) for m in legal}
        assert len(set(hints.values())) == len(legal), (pid, hints)  # each hint names one move
        assert move.kind == CLAIM or str(move) not in hints[move]  # a hint, not the answer
        told_apart += "," in hints[move] or " from " in hints[move]
    assert told_apart > 10  # the collection has many decisions between moves of one shape and suit


def test_a_hint_between_two_singles_of_one_suit() -> None:
    (puzzle,) = P.select(P.load(COLLECTION / "stop.json"), "s3191223699c6p4")  # seat 2 beats M1 with M3/4/5/9
    pos = puzzle.pos()
    hints = {str(m): move_hint(pos, m) for m in pos.legal_moves()}
    assert hints["M9"] == "a single of Myriads to beat, the highest of 4"
    assert hints["M3"] == "a single of Myriads to beat, the lowest of 4"
    assert hints["M4"] == "a single of Myriads to beat, the second lowest of 4"


@pytest.mark.parametrize("width", [60, 80, 120])
def test_puzzle_show_a_directory_keeps_every_id_whole(width: int) -> None:
    ids = [p.id for p in P.load_dir(COLLECTION)]
    for lang in ("en", "hi"):
        res = runner.invoke(app, ["puzzle", "show", str(COLLECTION), "--lang", lang], env={"COLUMNS": str(width)})
        assert res.exit_code == 0, res.stderr
        lines = res.stdout.splitlines()
        assert max(cells(line) for line in lines) <= width
        shown = [line.split()[0] for line in lines if line.strip().startswith("s")]
        assert [i for i in shown if i in ids] == ids  # every id, in order, none cut short
        assert "…" not in " ".join(line.split()[0] for line in lines if line.strip())


def test_the_readme_names_only_files_that_exist() -> None:
    text = (COLLECTION / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"puzzles/([\w-]+\.json)", text)) | set(re.findall(r"`([\w-]+\.json)`", text))
    assert named, "the README names the collection's files"
    missing = sorted(n for n in named if n != "mine.json" and not (COLLECTION / n).exists())
    assert not missing, missing


@pytest.mark.slow
@needs_tmux
def test_puzzle_play_wraps_by_words_at_80_columns(tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} puzzle play {COLLECTION / 'stop.json'}", 80, tmp_path)
    screens.append(screen)
    screen.wait_for("4) M9")
    screen.send("hint")
    screen.wait_for("Hint:")
    screen.send("1")
    text = screen.wait_for("Try again.")
    lines = text.splitlines()
    assert max(cells(line) for line in lines) <= 80
    words = flat(text)
    for phrase in ("'skip' for the next puzzle", "a total of 8, worth 3 points from each of the other two", "stop the caller (seat 0)"):
        assert phrase in words, phrase  # a wrapped phrase reads whole: no word was split across lines
    # a narration line that wraps goes on indented, never back at column 0
    trick = next(i for i, line in enumerate(lines) if line.startswith("  trick 1:"))
    assert lines[trick + 1].startswith("    ")
    assert "M3 fails: the caller still wins 6 points." in words
    assert "the highest of 4" in words


@pytest.mark.slow
@needs_tmux
def test_generate_on_a_terminal_saves_a_file_and_says_how_to_play_it(tmp_path: Path, screens: list[Screen]) -> None:
    (tmp_path / "puzzles-5.json").write_text("mine")  # never overwritten
    screen = Screen(f"{LUKFU} puzzle generate --count 1 --max-cards 4 --seed 5; sleep 30", 80, tmp_path)
    screens.append(screen)
    text = flat(screen.wait_for("puzzle play"))
    assert "lukfu puzzle play puzzles-5-2.json" in text and '"puzzles"' not in text
    assert (tmp_path / "puzzles-5.json").read_text() == "mine"
    assert json.loads((tmp_path / "puzzles-5-2.json").read_text())["format"] == "lukfu-puzzles"
