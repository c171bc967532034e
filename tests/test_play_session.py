"""``lukfu play --deals N``: deal after deal against the same two engine players, a running score
after each deal and before the next, one record per deal (each replays), the Master drawn afresh
for every deal as RULES.md has it (R2) and said so before the deal, each opponent keeping its
letter and its place round the table (A right after you, B right before) while the seat numbers
turn, a summary whose totals are the records' points; opponents by plain strength (easy, medium,
strong) with engine specs still accepted; stopping midway keeps the deals played and says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_checks import assert_bad_input
from screens import flat
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.play_session import STRENGTHS, deal_seeds, record_path
from lukfu_solver.game import deal_from_seed
from lukfu_solver.record import GameRecord
from lukfu_solver.session import parse_opponents

runner = CliRunner()
ANSWERS = "1\n" * 200
"""Always the first choice, and Enter between deals."""


def session(tmp_path: Path, *args: str, input: str = ANSWERS) -> str:
    res = runner.invoke(app, ["play", *args, "--record", str(tmp_path / "g.json")], input=input)
    assert res.exit_code == 0, (res.stdout[-3000:], res.stderr, res.exception)
    return res.stdout


def test_three_deals_one_record_each_a_running_score_and_a_summary(tmp_path: Path) -> None:
    out = session(tmp_path, "--seed", "74", "--seat", "0", "--deals", "3")
    records = [GameRecord.load(tmp_path / f"g-{k}.json") for k in (1, 2, 3)]
    assert not (tmp_path / "g.json").exists()
    assert [r.seed for r in records] == [74, 75, 76]
    for rec in records:
        rec.replay()  # every record is a whole, legal deal
        assert rec.hands == deal_from_seed(rec.seed or 0) or rec.passed_out
    # the same three people all session; the Master drawn for each deal (R2), so seats move
    assert all(set(r.players or ()) == {"you", "easy A", "easy B"} for r in records)
    seats = [r.players.index("you") for r in records if r.players]
    assert seats[0] == 0 and len(set(seats)) > 1
    mine = [r.outcome.points[r.players.index("you")] for r in records if r.outcome and r.players]
    for k in (1, 2, 3):
        assert f"Score after deal {k} of 3: you {_signed(sum(mine[:k]))}" in out
    summary = out.split("The session")[1]
    total = next(line for line in summary.splitlines() if line.strip().startswith("total"))
    assert total.split()[1] == _signed(sum(mine))  # you first
    rows = [line.split() for line in summary.splitlines() if re.match(r"\s+[123]\s", line)]
    for row, rec in zip(rows, records, strict=True):  # your seat, starred when you called
        assert rec.players is not None
        seat = rec.players.index("you")
        assert row[1] == (f"{seat}*" if seat == rec.caller else str(seat))
    assert f"Records: {tmp_path / 'g-1.json'} … {tmp_path / 'g-3.json'}" in flat(out)
    assert out.count("New deal, seed 75:") == 1


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_each_opponent_keeps_its_letter_and_place_and_each_deal_says_its_master(tmp_path: Path, seat: int) -> None:
    out = session(tmp_path, "--seed", "216307930", "--seat", str(seat), "--deals", "3")
    records = [GameRecord.load(tmp_path / f"g-{k}.json") for k in (1, 2, 3)]
    screens = re.split(r"\n(?=Deal \d of 3)", out)[1:]
    points = [0, 0, 0]  # you, easy A, easy B
    for k, (rec, screen) in enumerate(zip(records, screens, strict=True), 1):
        assert rec.players is not None and rec.outcome is not None
        you = rec.players.index("you")
        assert rec.players[(you + 1) % 3] == "easy A" and rec.players[(you + 2) % 3] == "easy B"
        head = flat(screen.split("your hand")[0])
        score = f"you {_signed(points[0])} · easy A {_signed(points[1])} · easy B {_signed(points[2])}"
        assert head.startswith(f"Deal {k} of 3" if k == 1 else f"Deal {k} of 3 — score so far: {score}"), head
        if you == 0:
            assert "You are the Master, drawn at random for this deal (R2)" in head
        else:
            assert f"{rec.players[0]} is the Master, drawn at random for this deal (R2)" in head
        a, b = (you + 1) % 3, (you + 2) % 3
        assert f"In playing order from you: you (seat {you}) → easy A (seat {a}) → easy B (seat {b})." in head
        for i, p in enumerate((you, a, b)):
            points[i] += rec.outcome.points[p]
    assert len({r.players.index("you") for r in records if r.players}) > 1  # the seats turned


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def test_stopping_midway_keeps_the_deals_played(tmp_path: Path) -> None:
    out = session(tmp_path, "--seed", "74", "--seat", "0", "--deals", "3", input="1\n" * 2 + "quit\n")
    assert (tmp_path / "g-1.json").exists() and not (tmp_path / "g-2.json").exists()
    assert "Stopped after 1 of 3 deals." in out and "The session" in out
    midway = runner.invoke(
        app,
        ["play", "--seed", "74", "--seat", "0", "--deals", "3", "--record", str(tmp_path / "h.json")],
        input="1\n1\n\n1\nquit\nyes\n",
    )
    assert midway.exit_code == 0 and "Stopped after 1 of 3 deals." in midway.stdout
    assert "the game is abandoned" in midway.stderr and not (tmp_path / "h-2.json").exists()


def test_opponents_by_strength_and_by_spec() -> None:
    def named(text: str, level: int) -> list[tuple[str, str]]:
        return [(o.name, o.engine) for o in parse_opponents(text, level)]

    assert named("medium", 3) == [("medium A", STRENGTHS["medium"]), ("medium B", STRENGTHS["medium"])]
    assert named("easy,strong", 3) == [("easy", "rule"), ("strong", STRENGTHS["strong"])]
    assert named("pimc", 2) == [("pimc:2 A", "pimc:2"), ("pimc:2 B", "pimc:2")]
    assert list(STRENGTHS) == ["easy", "medium", "strong"]


def test_a_session_in_russian_names_the_opponents_in_russian(tmp_path: Path) -> None:
    args = ["play", "--seed", "74", "--seat", "0", "--deals", "2", "--opponents", "easy,strong", "--lang", "ru"]
    res = runner.invoke(app, [*args, "--record", str(tmp_path / "g.json")], input=ANSWERS, env={"COLUMNS": "60"})
    out = res.stdout
    assert "лёгкий" in out and "сильный" in out and "easy" not in out and "strong" not in out
    assert "Счёт после раздачи 2 из 2" in out and "итого" in out
    head = next(line for line in out.split("Сессия")[1].splitlines() if "раздача" in line)
    assert head.split()[-3:] == ["вы", "лёгкий", "сильный"] and "…" not in head  # every column, whole, at 60


@pytest.mark.parametrize(
    "args,needles",
    [
        (["--deals", "0"], ["deals", "1-100"]),
        (["--deals", "101"], ["deals"]),
        (["--seed", str(2**63 - 1), "--deals", "2"], ["seed", "no room"]),
        (["--opponents", "hard"], ["opponents", "easy, medium, strong"]),
    ],
)
def test_bad_sessions_are_one_line(args: list[str], needles: list[str]) -> None:
    assert_bad_input(runner.invoke(app, ["play", *args]), *needles)


def test_record_paths_of_a_session() -> None:
    assert record_path(Path("d/g.json"), 2, 3) == Path("d/g-2.json")
    assert record_path(Path("g.json"), 1, 1) == Path("g.json") and record_path(None, 1, 3) is None
    assert deal_seeds(5, 3) == [5, 6, 7]
    assert re.fullmatch(r"\d+", str(deal_seeds(0, 1)[0]))
