"""Puzzles (``lukfu_solver.puzzles``, ``lukfu puzzle``): the uniqueness checker on hand-made
positions, every shipped puzzle re-verified, the generator reproducible by seed, the file format,
and the command line, including the play loop driven by scripted input."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver import puzzles as P
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

runner = CliRunner()
COLLECTION = Path(__file__).resolve().parent.parent / "puzzles"

ONE = "C235/C7M1T3/C8S3T5 1 1 0,5,4 C46S1245678M4689T46789 -"
"""The caller (seat 1, 5 fu) to lead C7, M1 or T3. Only M1 wins the trick (nobody else holds a
Myriad): 6 fu. Then only the claim wins: C7 and T3 would be beaten by seat 2's C8 and T5 and
lose the caller's lead. Two decisions, one winning move at each."""
TWO = "C235/M12T3/C8S3T5 1 1 0,5,4 C467S1245678M4689T46789 -"
"""The same with M1 M2 for C7 M1: M1 and M2 both win the first trick, so two first moves win."""


def moves(*texts: str) -> list[Play]:
    return [Play.parse(t) for t in texts]


@cache
def two_puzzles() -> tuple[str, ...]:
    """Two small generated puzzles (seed 5, 3-4 cards), as JSON, computed once."""
    found = P.generate(2, P.GenOptions(3, 4), seed=5)
    return tuple(json.dumps(p.to_dict()) for p in found)


def puzzle_file(tmp_path: Path, name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(P.dumps([P.Puzzle.from_dict(json.loads(t)) for t in two_puzzles()]))
    return path


# ---------------------------------------------------------------- uniqueness on hand-made positions


def test_single_winning_move_accepted() -> None:
    pos = Position.parse(ONE)
    values = make_solver("reference").solve(pos, all_moves=True).moves
    assert {str(m): v for m, v in values.items()} == {"C7": -4, "M1": 2, "T3": -4}
    an = P.analyse(pos, "win")
    assert an.ok, an.failure
    assert an.value == 2 and an.side == "caller"
    assert [str(m) for m in an.solution] == ["M1", "xS3", "xC2", "claim"]
    assert [st.role for st in an.steps] == [P.SOLVE, P.DEFEND, P.DEFEND, P.SOLVE]
    assert len(an.decisions) == 2
    # every other first move is strictly worse for the goal
    assert all(v <= 0 for m, v in an.first_moves.items() if str(m) != "M1")
    assert an.themes == ["claim timing"]
    assert an.rating is not None and an.rating.decisions == 2 and an.rating.tier == "easy"


def test_two_winning_moves_rejected() -> None:
    pos = Position.parse(TWO)
    values = make_solver("reference").solve(pos, all_moves=True).moves
    assert sorted(str(m) for m, v in values.items() if v > 0) == ["M1", "M2"]
    an = P.analyse(pos, "win")
    assert not an.ok and "2 first moves keep the goal: M1, M2" in an.failure
    assert not P.analyse(pos, "most").ok  # both also reach the best value
    checked = P.analyse(pos, "win", line=moves("M1", "xS3", "xC2", "M2"))
    assert not checked.ok and "step 1: 2 moves keep the goal for seat 1: M1 and M2" in checked.failure


def test_trivial_and_inconsistent_rejected() -> None:
    pos = Position.parse(ONE)
    after = pos.copy()
    for m in moves("M1", "xS3", "xC2"):
        after.push(m)
    assert after.can_claim()
    assert "a claim is available at once" in P.analyse(after, "win").failure
    assert "only 1 decision" in P.analyse(pos, "win", line=moves("M1")).failure
    assert "does not keep the goal" in P.analyse(pos, "win", line=moves("T3")).failure
    assert "not a best reply" in P.analyse(pos, "win", line=moves("M1", "xC8", "xC2", "claim")).failure
    assert "must end with a decision" in P.analyse(pos, "win", line=moves("M1", "xS3", "xC2")).failure
    assert "not legal" in P.analyse(pos, "win", line=moves("S9")).failure
    extra = P.analyse(pos, "win", line=moves("M1", "xS3", "xC2", "claim", "C7"))
    assert "step 5: C7 comes after the end of the deal" in extra.failure
    assert "a non-caller must be to move" in P.analyse(pos, "stop").failure
    # a tied defence reply is accepted too (seat 0 may discard C3 as well as C2)
    assert P.analyse(pos, "win", line=moves("M1", "xS3", "xC3", "claim")).ok
    with pytest.raises(NotationError):
        P.analyse(pos, "draw")


def test_every_move_wins_is_rejected() -> None:
    # the caller (5 fu) leads S3, M1 or M2, and nobody else holds a String or a Myriad
    pos = Position.parse("C235/S3M12/C8T35 1 1 0,5,4 C679S124578M46789T1246789 -")
    assert set(make_solver("reference").solve(pos, all_moves=True).moves.values()) == {6}
    an = P.analyse(pos, "win")
    assert not an.ok and "3 first moves keep the goal: S3, M1, M2" in an.failure


# ---------------------------------------------------------------- the shipped collection


@cache
def shipped() -> tuple[P.Puzzle, ...]:
    return tuple(P.load_dir(COLLECTION))


def test_collection_shape() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 60
    assert len({p.id for p in puzzles}) == len(puzzles)
    counts = P.summary_counts(puzzles)
    assert all(counts["difficulty"][t] >= 20 for t in P.TIERS), counts
    assert all(counts["theme"][t] >= 1 for t in P.THEMES), counts
    assert all(counts["goal"][g] >= 1 for g in P.GOALS), counts
    for p in puzzles:
        assert p.nodes is not None and p.nodes > 0 and p.source is not None
        assert 3 <= p.pos().cards_per_hand() <= 7


def test_collection_reverified() -> None:
    """Every shipped puzzle re-verifies, and cheaply: its check spends no more solver nodes than
    its generation did (a count, not a time)."""
    failures = {}
    dearer = {}
    for p in shipped():
        res = P.check(p)
        if not res.ok:
            failures[p.id] = res.failures
        assert p.nodes is not None and 0 < res.analysis.nodes
        if res.analysis.nodes > p.nodes:
            dearer[p.id] = (res.analysis.nodes, p.nodes)
    assert not failures
    assert not dearer, f"checks dearer than the generation (nodes, generation's): {dearer}"


def test_collection_sources_rebuild_positions() -> None:
    for p in shipped()[::12]:
        assert p.source is not None
        assert str(P.replay_source(p.source)) == p.position, p.id


# ---------------------------------------------------------------- generator and format


@pytest.mark.slow
def test_generator_reproducible_by_seed() -> None:
    first = [P.Puzzle.from_dict(json.loads(t)) for t in two_puzzles()]
    again = P.generate(2, P.GenOptions(3, 4), seed=5)
    assert P.dumps(first) == P.dumps(again)
    assert P.generate(1, P.GenOptions(3, 4), seed=6)[0].id != first[0].id
    assert P.dumps(P.generate(2, P.GenOptions(3, 4), seed=5, jobs=2)) == P.dumps(first)  # never of --jobs
    for p in first:
        assert P.check(p).ok
        assert str(P.replay_source(p.source)) == p.position


def test_generator_filters() -> None:
    opts = P.GenOptions(3, 4, difficulty="easy", goal="most")
    (p,) = P.generate(1, opts, seed=3)
    assert p.difficulty == "easy" and p.goal == "most"
    with pytest.raises(NotationError):
        P.GenOptions(2, 4).validate()
    with pytest.raises(NotationError):
        P.GenOptions(3, 4, theme="run versus set").validate()  # built deals need 5 cards
    with pytest.raises(NotationError):
        P.GenOptions(3, 4, theme="luck").validate()


def test_run_and_set_built_positions_are_valid() -> None:
    import random

    from lukfu_solver.endgames import random_endgame
    from lukfu_solver.plays import RUN, SET

    for seed in range(10):
        pos = P.plant_run_and_set(random_endgame(seed, 6), random.Random(seed))
        kinds = {m.kind for m in pos.legal_moves()}
        assert {RUN, SET} <= kinds
        assert Position.parse(str(pos)) == pos


def test_reference_solver_gives_the_same_analysis() -> None:
    """The compiled solver (the default) and the reference give the same line, values and nodes."""
    pos = Position.parse(ONE)
    fast, ref = P.analyse(pos, "win"), P.analyse(pos, "win", solver="reference")
    assert fast.solver != ref.solver == "Solver"
    assert (fast.solution, fast.first_moves, fast.rating, fast.nodes) == (
        ref.solution,
        ref.first_moves,
        ref.rating,
        ref.nodes,
    )
    p = P.Puzzle.from_dict(json.loads(two_puzzles()[0]))
    assert P.check(p, "reference").analysis.nodes == P.check(p).analysis.nodes == p.nodes


def test_format_round_trip_and_errors() -> None:
    puzzles = [P.Puzzle.from_dict(json.loads(t)) for t in two_puzzles()]
    text = P.dumps(puzzles, {"seed": 5})
    assert P.loads(text) == puzzles
    one = json.loads(two_puzzles()[0])
    assert P.loads(json.dumps(one)) == puzzles[:1]  # a bare puzzle
    assert P.loads(json.dumps([one])) == puzzles[:1]  # a list
    for bad, needle in [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "chess", "puzzles": []}), "format"),
        (json.dumps([one, one]), "appears twice"),
        (json.dumps([{k: v for k, v in one.items() if k != "solution"}]), "missing 'solution'"),
        (json.dumps([{**one, "position": "C1 0 0 0,0,0 - -"}]), "position"),
        (json.dumps([{**one, "goal": "draw"}]), "goal"),
        (json.dumps([{**one, "solution": ["S0"]}]), "solution"),
    ]:
        with pytest.raises(NotationError, match=needle):
            P.loads(bad)


def test_check_reports_tampering() -> None:
    p = P.Puzzle.from_dict(json.loads(two_puzzles()[0]))
    assert P.check(p).ok
    bad_value = P.Puzzle.from_dict({**p.to_dict(), "value": p.value + 2})
    assert any("value" in f for f in P.check(bad_value).failures)
    bad_tier = P.Puzzle.from_dict({**p.to_dict(), "difficulty": "hard" if p.difficulty != "hard" else "easy"})
    assert any("difficulty" in f for f in P.check(bad_tier).failures)
    bad_line = P.Puzzle.from_dict({**p.to_dict(), "solution": p.solution[:1]})
    assert not P.check(bad_line).ok


# ---------------------------------------------------------------- command line


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_cli_generate_out_and_force(tmp_path: Path) -> None:
    out = tmp_path / "gen.json"
    args = ["puzzle", "generate", "--count", "2", "--min-cards", "3", "--max-cards", "4", "--seed", "5"]
    result = run(*args, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "generated 2 puzzles" in result.stderr and result.stdout == ""
    data = json.loads(out.read_text())
    assert data["format"] == "lukfu-puzzles" and data["generator"]["seed"] == 5
    assert [p["id"] for p in data["puzzles"]] == [json.loads(t)["id"] for t in two_puzzles()]
    assert_bad_input(run(*args, "--out", str(out)), "--force")
    assert run(*args, "--out", str(out), "--force").exit_code == 0
    stdout = run(*args)
    assert stdout.exit_code == 0 and json.loads(stdout.stdout)["puzzles"] == data["puzzles"]


def test_cli_check(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path)
    result = run("puzzle", "check", str(path))
    assert result.exit_code == 0 and "2 passed, 0 failed" in result.stdout
    data = json.loads(run("puzzle", "check", str(path), "--json").stdout)
    assert data["passed"] == 2 and all(r["ok"] and r["nodes"] > 0 for r in data["results"])
    doc = json.loads(path.read_text())
    doc["puzzles"][1]["value"] += 2
    path.write_text(json.dumps(doc))
    result = run("puzzle", "check", str(path))
    bad_id = doc["puzzles"][1]["id"]
    assert result.exit_code == 1 and f"FAIL  {bad_id}: value" in result.stdout
    assert "1 passed, 1 failed" in result.stdout


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["puzzle", "check", "/nonexistent/p.json"], ["file"]),
        (["puzzle", "show", "BADJSON"], ["not valid JSON"]),
        (["puzzle", "show", "GOOD", "--id", "nope"], ["id", "nope"]),
        (["puzzle", "solve", "C1 0 0 0,0,0 - -"], ["hands"]),
        (["puzzle", "solve", ONE, "--goal", "draw"], ["goal"]),
        (["puzzle", "generate", "--min-cards", "2"], ["cards"]),
        (["puzzle", "generate", "--difficulty", "tricky"], ["difficulty"]),
        (["puzzle", "generate", "--count", "0"], ["count"]),
        (["puzzle", "check", "GOOD", "--solver", "nope"], ["solver", "compiled or reference"]),
        (["puzzle", "solve", ONE, "--solver", "python"], ["solver"]),
        (["puzzle", "generate", "--out", "GOOD"], ["--force"]),
    ],
)
def test_cli_bad_input(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    args = [str(bad) if a == "BADJSON" else str(puzzle_file(tmp_path)) if a == "GOOD" else a for a in args]
    assert_bad_input(run(*args), *needles)


def test_cli_show(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path)
    first = json.loads(two_puzzles()[0])
    listing = run("puzzle", "show", str(path))
    assert listing.exit_code == 0 and first["id"] in listing.stdout and "2 puzzles" in listing.stdout
    one = run("puzzle", "show", str(path), "--id", first["id"])
    assert one.exit_code == 0 and "Question:" in one.stdout and "Difficulty:" in one.stdout
    data = json.loads(run("puzzle", "show", str(path), "--id", first["id"], "--json").stdout)
    assert data["puzzle"]["id"] == first["id"] and data["position"]["position"] == first["position"]
    assert json.loads(run("puzzle", "show", str(path), "--json").stdout)["count"] == 2


def test_cli_solve_position_and_file(tmp_path: Path) -> None:
    data = json.loads(run("puzzle", "solve", ONE, "--json").stdout)
    assert data["goal"] == "win" and data["ok"] and data["value"] == 2
    assert data["solution"] == ["M1", "xS3", "xC2", "claim"]
    assert [a["move"] for a in data["alternatives"]] == ["C7", "T3"]
    for alt in data["alternatives"]:
        assert alt["value"] == -4 and not alt["keeps_goal"] and alt["refutation"]
        assert alt["narration"][-1].startswith("result:")
    assert json.loads(run("puzzle", "solve", ONE, "--json", "--solver", "reference").stdout) == data
    text = run("puzzle", "solve", ONE).stdout
    assert "★ seat 1 leads M1" in text and "C7: value -4, fails" in text and "Themes: claim timing" in text
    rejected = json.loads(run("puzzle", "solve", TWO, "--json").stdout)
    assert not rejected["ok"] and "first moves keep the goal" in rejected["failure"]
    path = puzzle_file(tmp_path)
    out = run("puzzle", "solve", str(path), "--json")
    objs = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(objs) == 2 and all(o["ok"] for o in objs)
    for o, t in zip(objs, two_puzzles(), strict=True):
        stored = json.loads(t)
        assert o["solution"] == stored["solution"] and o["value"] == stored["value"]
        assert all(not a["keeps_goal"] for a in o["alternatives"])


def play_file(tmp_path: Path) -> Path:
    path = tmp_path / "one.json"
    an = P.analyse(Position.parse(ONE), "win")
    path.write_text(P.dumps([P.puzzle_from_analysis(an, "one")]))
    return path


def test_cli_play_scripted(tmp_path: Path) -> None:
    path = play_file(tmp_path)
    script = "hint\nC7\nS9\n7\nhint\n2\nT3\nclaim\n"
    result = run("puzzle", "play", str(path), input=script)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Question: Seat 1 (the caller) to lead and win." in out
    assert "1) C7   2) M1   3) T3" in out
    assert "Hint: the move is a single of Myriads to lead." in out  # the only Myriad: no more said
    assert "C7 fails: the caller loses 4 points: no win. The refutation:" in out
    assert "seat 2 beats with C8" in out
    assert "S9 is not legal here" in out and "No move 7" in out
    assert "Hint: play M1." in out  # the second hint names the move
    assert "Correct: seat 1 leads M1." in out
    assert "seat 1 wins the trick: 1 fu (fu 0–6–4)" in out
    assert "1) claim   2) C7   3) T3" in out and "T3 fails" in out
    assert "Correct: seat 1 claims" in out and "Solved after 2 wrong tries!" in out
    assert "Solved 1 of 1 puzzle." in out


def test_cli_play_eof_and_quit(tmp_path: Path) -> None:
    path = play_file(tmp_path)
    result = run("puzzle", "play", str(path), input="hint\nhint\n")
    assert result.exit_code == 0 and "Hint: play M1." in result.stdout
    assert "Solved 0 of 1 puzzle." in result.stdout and result.stderr == ""
    two = puzzle_file(tmp_path)
    quit_ = run("puzzle", "play", str(two), input="quit\n")
    assert quit_.exit_code == 0 and "Solved 0 of 2 puzzles." in quit_.stdout
    skipped = run("puzzle", "play", str(two), input="skip\nskip\n")
    assert skipped.stdout.count("Skipped. The solution:") == 2
    empty = run("puzzle", "play", str(path), input="")
    assert empty.exit_code == 0 and "Solved 0 of 1 puzzle." in empty.stdout


def test_cli_play_solves_generated_by_solution(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path)
    script = ""
    for t in two_puzzles():
        p = P.Puzzle.from_dict(json.loads(t))
        an = P.analyse(p.pos(), p.goal, line=p.line())
        script += "".join(f"{st.move}\n" for st in an.steps if st.role == P.SOLVE)
    result = run("puzzle", "play", str(path), input=script)
    assert result.exit_code == 0 and "Solved 2 of 2 puzzles." in result.stdout
    assert "fails" not in result.stdout
