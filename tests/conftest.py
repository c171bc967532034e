"""Shared test helpers and the hypothesis profile.

Hypothesis runs derandomized (the same examples on every run, so CI is reproducible) with no
deadline (the machine is shared). ``HYPOTHESIS_PROFILE=thorough`` runs many more examples. A slow
test (seconds or more) carries ``@pytest.mark.slow`` itself; ``-m "not slow"`` is the fast loop.
"""

from __future__ import annotations

import faulthandler
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from lukfu_solver.cards import ALL_CARDS, format_cards, parse_cards
from lukfu_solver.i18n import set_language
from lukfu_solver.plays import Play
from lukfu_solver.position import Position

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=40,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    derandomize=False,
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))



_INSTALLED_COPY = "import lukfu_solver; print(lukfu_solver.__file__)"
_COMPILE = "from lukfu_solver.search.compiled import prepare_kernel; prepare_kernel()"


@pytest.fixture(scope="session", autouse=True)
def _kernel_compiled_once() -> None:
    """Make the numba kernel ready once, before the first test, for both copies the tests run:
    the one this process imports (the source tree) and the installed one that ``lukfu``
    subprocesses import (from a non-editable install they differ; the cache is per kernel, so
    an identical kernel is compiled once and the other copy waits for it and loads it, and a
    non-editable install ships its own compiled).

    Without this, the first tests to start ``lukfu`` (often with worker pools) compiled the
    installed copy in several processes at once, which on a loaded 2-core machine took minutes and
    ran into the tests' hang guards. Two different kernels compile side by side, one per core.
    """
    from lukfu_solver.search.compiled import prepare_kernel

    with tempfile.TemporaryDirectory() as elsewhere:  # not the source tree, so the installed copy
        where = subprocess.run([sys.executable, "-c", _INSTALLED_COPY], cwd=elsewhere, capture_output=True, text=True)
        import lukfu_solver

        other = where.returncode == 0 and os.path.realpath(where.stdout.strip()) != os.path.realpath(
            lukfu_solver.__file__
        )
        proc = subprocess.Popen([sys.executable, "-c", _COMPILE], cwd=elsewhere) if other else None
        prepare_kernel()
        if proc is not None:
            proc.wait()


HANG_LIMIT = 600
"""Seconds one test may take before it is taken for hung: far above the slowest test (about a
minute, with the first compile), far below CI's own limit."""


@pytest.fixture(autouse=True)
def _hang_guard() -> Iterator[None]:
    """A test that hangs prints every thread's stack and ends the run with exit code 1 after
    :data:`HANG_LIMIT` seconds, so CI fails at once with the place of the hang instead of waiting
    silently for its own time limit (a lost worker once left a pool waiting for ever)."""
    faulthandler.dump_traceback_later(HANG_LIMIT, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """Every test starts and ends in English: a command run with ``--lang`` inside the test
    process (Typer's CliRunner) sets the language for the process, and must not leak into the next test."""
    set_language("en")
    yield
    set_language("en")


EXAMPLE = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -"
"""The example position of NOTATION.md: seat 1 called, the Master to lead."""


def C(text: str) -> int:
    """A card mask from a card list."""
    return parse_cards(text)


def P(text: str) -> Play:
    """A play from its text."""
    return Play.parse(text)


def moves(pos: Position) -> list[str]:
    """The legal moves of ``pos`` as text, in generator order."""
    return [str(m) for m in pos.legal_moves()]


def make_pos(
    hands: tuple[str, str, str] | list[str],
    to_move: int = 0,
    caller: int = 0,
    fu: tuple[int, int, int] | None = None,
    faceup: str | None = None,
    trick: str = "-",
) -> Position:
    """A validated position from its parts, via :meth:`Position.parse`.

    ``hands`` are the hands now (the cards in ``trick`` are added back by the parser). ``fu``
    defaults to every completed-trick card going to the leader. ``faceup`` defaults to every card
    named nowhere else (so nothing is face down).
    """
    named = 0
    for h in hands:
        named |= parse_cards(h)
    n_plays = 0
    trick_cards = 0
    if trick != "-":
        for t in trick.split(","):
            trick_cards |= Play.parse(t).cards
            n_plays += 1
    named |= trick_cards
    leader = (to_move - n_plays) % 3
    n = parse_cards(hands[leader]).bit_count() + (Play.parse(trick.split(",")[0]).size if n_plays else 0)
    c = 12 - n
    if fu is None:
        fu = [0, 0, 0]
        fu[leader] = c
    up = format_cards(ALL_CARDS & ~named) if faceup is None else faceup
    line = f"{'/'.join(hands)} {to_move} {caller} {','.join(map(str, fu))} {up} {trick}"
    return Position.parse(line)


def deal(seed: int) -> list[int]:
    """Three 12-card hands (masks) from a seeded shuffle of the 36 cards."""
    cards = list(range(36))
    random.Random(seed).shuffle(cards)
    return [sum(1 << c for c in cards[12 * s : 12 * s + 12]) for s in range(3)]


def start_line(hands: list[int], caller: int) -> str:
    """The position line of a deal before the first lead."""
    return f"{'/'.join(format_cards(h) for h in hands)} 0 {caller} 0,0,0 - -"


def start(h0: str, h1: str, caller: int = 0) -> Position:
    """The position before the first lead with seat 0 and seat 1 holding ``h0``, ``h1`` (seat 2 the rest)."""
    h2 = format_cards(ALL_CARDS & ~parse_cards(h0) & ~parse_cards(h1))
    return Position.parse(f"{h0}/{h1}/{h2} 0 {caller} 0,0,0 - -")


def play(pos: Position, *texts: str) -> Position:
    """Push each move (checked for legality) and return the position."""
    for t in texts:
        pos.push_checked(Play.parse(t))
    return pos


def kernel_playouts(seeds: range) -> Iterator[tuple[Position, object, int]]:
    """(position, the kernel's state rows, ply) along seeded random playouts of whole deals, the
    rows written by the kernel's own ``push`` (claims now and then), for the kernel's cache tests;
    the kernel is imported here, so that only tests that need numba pay for it."""
    import numpy as np

    from lukfu_solver.game import deal_hands
    from lukfu_solver.plays import CLAIM
    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import encode, load_row, tables

    T = tables()
    for seed in seeds:
        rng = random.Random(seed)
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
        load_row(st, 0, pos)
        ply = 0
        while pos.outcome is None:
            yield pos, st, ply
            legal = list(pos.legal_moves())
            pool = legal if rng.random() < 0.3 else [m for m in legal if m.kind != CLAIM]
            m = rng.choice(pool)
            pos.push(m)
            K.push(T, st, ply, encode(m))
            ply += 1


@pytest.fixture
def screens() -> Iterator[list]:
    """The tmux screens a test opens (:class:`screens.Screen`), each closed after the test."""
    made: list = []
    yield made
    for s in made:
        s.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when the browser tests were skipped for want of Chromium, naming the install
    command (a skip's reason is not shown by default)."""
    for report in terminalreporter.stats.get("skipped", []):
        if "test_web_e2e" in str(getattr(report, "nodeid", "")) or "test_web_e2e" in str(report.longrepr):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            terminalreporter.write_line(reason.removeprefix("Skipped: "))
            return
