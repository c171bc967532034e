"""The seeded puzzle generator: deals played at random down to a size, then by sensible play
(the guided walk); every position on the way is tried as a puzzle, at most one kept a deal
(``docs/puzzles.md``). Every result is a function of the seed and the options alone.

>>> [s for s, _ in zip(attempt_seeds(7), range(2))]
[1390851128, 4071050724]
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..cards import card as card_index
from ..cards import iter_cards
from ..endgames import random_endgame
from ..errors import NotationError
from ..i18n import _
from ..parallel import ordered_map
from ..plays import Play
from ..position import Position
from .format import Puzzle, puzzle_from_analysis
from .goals import GOALS, PuzzleError, goal_candidates
from .line import PuzzleAnalysis, SolveContext, analyse
from .rating import THEMES, TIERS

GEN_MAX_NODES = 400_000
"""The generator drops a candidate when one solve needs more nodes than this (the long tail)."""


@dataclass(frozen=True)
class GenOptions:
    """What the generator looks for: hand sizes, and optionally a tier, a theme and a goal."""

    min_cards: int = 3
    max_cards: int = 6
    difficulty: str | None = None
    theme: str | None = None
    goal: str | None = None
    max_nodes: int = GEN_MAX_NODES

    def validate(self) -> None:
        """NotationError for options that make no sense."""
        if not 3 <= self.min_cards <= self.max_cards <= 7:
            raise NotationError(
                "cards",
                _("need 3 <= min-cards <= max-cards <= 7, got {min_cards} and {max_cards}").format(
                    min_cards=self.min_cards, max_cards=self.max_cards
                ),
            )
        if self.difficulty is not None and self.difficulty not in TIERS:
            raise NotationError(
                "difficulty",
                _("expected one of {choices}, got {difficulty!r}").format(
                    choices=", ".join(TIERS), difficulty=self.difficulty
                ),
            )
        if self.theme is not None and self.theme not in THEMES:
            raise NotationError(
                "theme",
                _("expected one of {choices}, got {theme!r}").format(
                    choices=", ".join(repr(t) for t in THEMES), theme=self.theme
                ),
            )
        if self.goal is not None and self.goal not in GOALS:
            raise NotationError(
                "goal", _("expected one of {choices}, got {goal!r}").format(choices=", ".join(GOALS), goal=self.goal)
            )
        if self.build is not None and self.max_cards < 5:
            raise NotationError(
                "cards", _("puzzles on run versus set are built with 5 or more cards a hand: --max-cards 5+")
            )

    @property
    def build(self) -> str | None:
        """How deals are built: ``run-set`` (a run and a set planted) for that theme, else None."""
        return RUN_SET if self.theme == "run versus set" else None

    def start_cards(self, seed: int) -> int:
        """The cards a hand the deal of ``seed`` is played down to before the guided walk."""
        low = max(self.min_cards, 5) if self.build else self.min_cards
        return random.Random(seed ^ 0x5EED).randint(low, self.max_cards)

    def accepts(self, an: PuzzleAnalysis) -> bool:
        """Whether a valid analysis meets the tier, theme and goal asked for."""
        assert an.rating is not None
        return (
            (self.difficulty is None or an.rating.tier == self.difficulty)
            and (self.theme is None or self.theme in an.themes)
            and (self.goal is None or an.goal == self.goal)
        )


RUN_SET = "run-set"


def plant_run_and_set(pos: Position, rng: random.Random) -> Position:
    """The position with a run of three and a set of three sharing a card (five cards) moved
    into the hand of the seat to lead, each swapped with one of its other cards wherever it was
    (another hand, face up or face down): a position built directly, since random play rarely
    leaves both shapes in one small hand. Sizes, fu and the face-down count are unchanged, so
    the position stays valid (it is re-parsed to make sure)."""
    assert not pos.trick and pos.cards_per_hand() >= 5
    s = pos.to_move
    rank = rng.randint(1, 9)
    suit = rng.randrange(4)
    start = rng.randint(max(1, rank - 2), min(rank, 7))
    run = sum(1 << card_index(suit, r) for r in range(start, start + 3))
    others = rng.sample([t for t in range(4) if t != suit], 2)
    group = run | sum(1 << card_index(t, rank) for t in others)
    hands = list(pos.hands)
    faceup = pos.faceup
    spare = [c for c in iter_cards(hands[s] & ~group)]
    rng.shuffle(spare)
    for c in iter_cards(group & ~hands[s]):
        b = 1 << c
        out = 1 << spare.pop()
        hands[s] ^= out | b
        for t in range(3):
            if t != s and hands[t] & b:
                hands[t] ^= b | out
        if faceup & b:
            faceup ^= b | out
    built = Position(hands, pos.to_move, pos.caller, pos.fu, faceup)
    return Position.parse(str(built))


def attempt_seeds(seed: int) -> Iterator[int]:
    """The deal seeds the generator tries for ``--seed seed``, in order (32-bit, from a seeded RNG)."""
    rng = random.Random(seed)
    while True:
        yield rng.getrandbits(32)


def guided_walk(seed: int, cards: int, ctx: SolveContext, build: str | None = None) -> Iterator[tuple[int, Position]]:
    """The positions of a seeded deal: ``random_endgame(seed, cards)`` (random play down to
    ``cards`` cards a hand; with ``build`` ``"run-set"`` then :func:`plant_run_and_set`), then
    sensible play: each move one of best exact value for its side, ties broken by
    ``random.Random(seed)``. Yields ``(ply, position)`` from ply 0 until the deal ends;
    :func:`replay_source` rebuilds any of them."""
    pos = random_endgame(seed, cards)
    if build == RUN_SET:
        pos = plant_run_and_set(pos, random.Random(seed ^ 0xB11D))
    elif build is not None:
        raise NotationError("source", _("unknown build {build!r} (known: {known})").format(build=build, known=RUN_SET))
    rng = random.Random(seed)
    ply = 0
    while not pos.is_over:
        yield ply, pos.copy()
        legal = sorted(pos.legal_moves(), key=Play.sort_key)
        if len(legal) == 1:
            move = legal[0]
        else:
            _value, vals = ctx.values(pos)
            pick = max if pos.to_move == pos.caller else min
            best = pick(vals.values())
            move = rng.choice([m for m in legal if vals[m] == best])
        pos.push(move)
        ply += 1


def replay_source(source: dict[str, Any], solver: str = "compiled") -> Position:
    """The position a puzzle's ``source`` ({"seed", "cards", "ply"}, optional "build") names,
    rebuilt by :func:`guided_walk` (with a fresh solver of kind ``solver``)."""
    ctx = SolveContext(solver)
    for ply, pos in guided_walk(source["seed"], source["cards"], ctx, source.get("build")):
        if ply == source["ply"]:
            return pos
    raise NotationError(
        "source", _("the deal of seed {seed} ends before ply {ply}").format(seed=source["seed"], ply=source["ply"])
    )


def puzzles_from_seed(seed: int, opts: GenOptions, solver: str = "compiled") -> Iterator[Puzzle]:
    """Every puzzle meeting ``opts`` along the guided walk of the deal of ``seed`` (its starting
    size from :meth:`GenOptions.start_cards`). A goal is tried only when the first move is
    unique for it: ``win``/``stop`` first, ``most`` when they fail. Each puzzle found is
    verified again from scratch with a fresh solver of kind ``solver``, which gives its
    verification nodes."""
    cards = opts.start_cards(seed)
    ctx = SolveContext(solver, opts.max_nodes)
    try:
        for ply, pos in guided_walk(seed, cards, ctx, opts.build):
            n = pos.cards_per_hand()
            if n < opts.min_cards:
                return
            if n > opts.max_cards or pos.can_claim() or sum(1 for _m in pos.legal_moves()) < 2:
                continue
            value, moves = ctx.values(pos)
            for goal in goal_candidates(pos, value, moves):
                an = analyse(pos, goal, context=ctx)
                if not an.ok or not opts.accepts(an):
                    continue
                fresh = analyse(pos, goal, an.solution, solver=solver, max_nodes=opts.max_nodes)
                if not fresh.ok:  # cannot happen: the same definitions, a fresh table
                    continue
                source: dict[str, Any] = {"seed": seed, "cards": cards, "ply": ply}
                if opts.build:
                    source["build"] = opts.build
                yield puzzle_from_analysis(fresh, puzzle_id(source), seed=seed, source=source)
    except PuzzleError:  # a solve hit the node cap: drop the rest of this deal
        return


def puzzle_id(source: dict[str, Any]) -> str:
    """The id of a generated puzzle: ``s<seed>c<cards>p<ply>`` (``b`` appended when built)."""
    return f"s{source['seed']}c{source['cards']}p{source['ply']}" + ("b" if source.get("build") else "")


def first_puzzle(seed: int, opts: GenOptions, solver: str = "compiled") -> Puzzle | None:
    """The first puzzle of the deal of ``seed`` meeting ``opts``, or None (one puzzle a deal keeps
    a collection varied)."""
    return next(puzzles_from_seed(seed, opts, solver), None)


def search_deals(opts: GenOptions, seed: int, solver: str = "compiled", jobs: int = 1) -> Iterator[Puzzle | None]:
    """One result a deal of :func:`attempt_seeds` (``seed``) in order, without end: the deal's
    first puzzle or None, on ``jobs`` processes when more than one, or on the Dask cluster of a
    :func:`~lukfu_solver.parallel.using` block. The order, hence every output, does not depend
    on ``jobs`` or the cluster; closing the iterator stops the workers."""
    work = functools.partial(first_puzzle, opts=opts, solver=solver)
    yield from ordered_map(work, attempt_seeds(seed), jobs)  # reads the endless seeds only as needed


def generate(
    count: int,
    opts: GenOptions,
    seed: int = 0,
    solver: str = "compiled",
    progress: Callable[[int, int], None] | None = None,
    max_attempts: int | None = None,
    jobs: int = 1,
) -> list[Puzzle]:
    """``count`` puzzles meeting ``opts`` from the deals of :func:`attempt_seeds` (``seed``), in
    order, at most one a deal, trying at most ``max_attempts`` deals, on ``jobs`` processes: the
    result is a function of ``count``, ``opts``, ``seed`` and ``max_attempts`` alone (never of
    the solver or ``jobs``). ``progress(found, tried)`` is called after each deal."""
    opts.validate()
    found: list[Puzzle] = []
    if count < 1 or max_attempts is not None and max_attempts < 1:
        return found
    deals = search_deals(opts, seed, solver, jobs)
    try:
        for tried, p in enumerate(deals, 1):
            if p is not None:
                found.append(p)
            if progress is not None:
                progress(len(found), tried)
            if len(found) >= count or (max_attempts is not None and tried >= max_attempts):
                break
    finally:
        deals.close()
    return found
