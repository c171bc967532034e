"""The player interface and the registry that builds a player from its spec."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from .. import i18n
from ..errors import NotationError
from ..plays import Play
from ..policy.rule import RulePlayer
from ..view import SeatView
from .ipimc import IpimcPlayer, pool_player
from .pimc import DEFAULT_LEVEL, LEVELS, PimcPlayer
from .random import RandomPlayer


@runtime_checkable
class Player(Protocol):
    """The interface of every player: a ``name`` and an answer for a seat view.

    In the calling phase (``view.caller is None``) the answer is ``"play"`` or ``"pass"``;
    otherwise it is one of ``view.legal_moves()``.
    """

    name: str

    def __call__(self, view: SeatView) -> Play | str: ...


# ================================================================ registry


PLAYER_KINDS = ("random", "rule", "pimc", "ipimc")
STRENGTHS: dict[str, str] = {"easy": "rule", "medium": "pimc:1", "strong": "ipimc"}
"""Opponents by plain strength, weakest first (what a person picks at a table: ``lukfu play
--opponents medium``), and the engine each one is: the rule player (instant), the PIMC player at
level 1, and PIMC at level 3 with its sampled deals weighed by what the other seats did
(``ipimc``). Each is measured stronger than the one below by more than 0.2 points a deal in
matches of 1,200 games (``bench/results/strength-names.json``, ``docs/pimc.md``); the levels of
plain PIMC from 2 up were not told apart from level 3, nor ``ipimc`` above level 3 from ``ipimc``.
:func:`make_player` accepts the names."""
SPEC_HELP = (
    "random | rule[:T] (call threshold) | pimc[:L[:C]] (level 1-5, call calibration C) | "
    "ipimc[:L[:P[c]]] (pimc with inference; default: the deals weighed by the others' calls and plays, "
    "a pool of 4 times the samples carried between decisions; P: deals drawn a sample, resampled; "
    "ipimc:L:1 weighs the calls only)"
)


def make_player(spec: str, seed: int = 0) -> Player:
    """A player from its spec: ``random``, ``rule``, ``rule:T``, ``pimc``, ``pimc:L``, ``pimc:L:C``
    (``C`` points added to PIMC's value of calling; ``pimc:3:0`` is the uncalibrated player),
    ``ipimc``, ``ipimc:L`` (the PIMC player over deals weighted by the other seats' actions: the
    configuration measured ahead of ``pimc``, the same player as ``ipimc:L:4c``,
    :func:`~lukfu_solver.players.ipimc.pool_player`), ``ipimc:L:Pc`` (``P`` of 2-4: that
    configuration with another pool), ``ipimc:L:P`` (``P`` times the samples drawn afresh,
    weighed by the calls, and resampled; ``ipimc:L:1`` the weighted call without a pool).

    ``seed`` seeds the player's random choices (``random``'s moves, ``pimc``'s samples). A bad
    spec raises NotationError("player", …).

    A plain strength (:data:`STRENGTHS`: ``easy``, ``medium``, ``strong``) is the engine it names.

    >>> [make_player(s).name for s in ("random", "rule", "rule:4.5", "pimc", "pimc:1", "pimc:3:0", "ipimc:2")]
    ['random', 'rule', 'rule:4.5', 'pimc', 'pimc:1', 'pimc:3:0', 'ipimc:2']
    """
    text = spec.strip().lower()
    text = STRENGTHS.get(text, text)  # a plain strength names its engine
    kind, colon, arg = text.partition(":")  # a colon must be followed by its argument: "pimc:" is no spec
    if kind == "random" and not colon:
        return RandomPlayer(seed)
    if kind == "rule":
        if not colon:
            return RulePlayer()
        try:
            t = float(arg)
        except ValueError:
            raise NotationError(
                "player", i18n._("rule:T needs a number T (the call threshold), got {arg}").format(arg=repr(arg))
            ) from None
        if not 0 <= t <= 20:
            raise NotationError("player", i18n._("rule call threshold {t:g} outside 0-20").format(t=t))
        return RulePlayer(t)
    if kind == "pimc":
        if not colon:
            return PimcPlayer(DEFAULT_LEVEL, seed)
        level, colon, cal = arg.partition(":")
        if not _is_level(level):
            raise NotationError("player", i18n._("pimc:L needs a level 1-5, got {level}").format(level=repr(level)))
        if not colon:
            return PimcPlayer(int(level), seed)
        try:
            c = float(cal)
        except ValueError:
            raise NotationError(
                "player", i18n._("pimc:L:C needs a number C (the call calibration), got {cal}").format(cal=repr(cal))
            ) from None
        if not -10 <= c <= 10:
            raise NotationError("player", i18n._("pimc call calibration {c:g} outside -10..10").format(c=c))
        return PimcPlayer(int(level), seed, calibration=c)
    if kind == "ipimc":
        if not colon:
            return pool_player(DEFAULT_LEVEL, seed, name="ipimc")
        level, colon, pool = arg.partition(":")
        if not _is_level(level):
            raise NotationError("player", i18n._("ipimc:L needs a level 1-5, got {level}").format(level=repr(level)))
        if not colon:
            return pool_player(int(level), seed, name=f"ipimc:{level}")
        if pool.endswith("c"):
            size = pool[:-1]
            if not (size.isascii() and size.isdigit() and 2 <= int(size) <= 4):
                raise NotationError(
                    "player",
                    i18n._("ipimc:L:Pc (the carried pool) needs a pool P of 2-4, got {pool}").format(pool=repr(pool)),
                )
            return pool_player(int(level), seed, int(size))
        if not (pool.isascii() and pool.isdigit() and 1 <= int(pool) <= 4):
            raise NotationError("player", i18n._("ipimc:L:P needs a pool P of 1-4, got {pool}").format(pool=repr(pool)))
        return IpimcPlayer(int(level), seed, pool=int(pool))
    raise NotationError(
        "player", i18n._("unknown player {spec} (players: {players})").format(spec=repr(spec), players=SPEC_HELP)
    )


def strength_of(spec: str) -> str:
    """The plain strength (:data:`STRENGTHS`) nearest an engine spec, for calibrating against it:
    a strength is itself; ``random`` and ``rule`` are ``easy``, ``pimc`` ``medium``, ``ipimc``
    ``strong``.

    >>> [strength_of(s) for s in ("medium", "rule:4", "pimc:5", "ipimc:2", "random")]
    ['medium', 'easy', 'medium', 'strong', 'easy']
    """
    text = spec.strip().lower()
    if text in STRENGTHS:
        return text
    kind = text.partition(":")[0]
    return {"random": "easy", "rule": "easy", "pimc": "medium"}.get(kind, "strong")


def against_of(opponents: Sequence[str]) -> str:
    """The strength a seat's values are calibrated against at a table with ``opponents`` (their
    specs or strengths): theirs when they are alike, else the stronger's (the smaller correction).

    >>> against_of(["easy", "rule"]), against_of(["medium", "easy"])
    ('easy', 'medium')
    """
    order = list(STRENGTHS)
    return max((strength_of(s) for s in opponents), key=order.index)


def strength_of_name(name: str) -> str | None:
    """The plain strength a record's player name tells: a strength or an engine spec, alone, with
    a table's letter (``medium A``) or a match's number (``rule#2``) after it; None for any other
    name (a person, ``you``).

    >>> [strength_of_name(n) for n in ("easy B", "rule#1", "pimc:2 A", "ipimc", "you", "ann")]
    ['easy', 'easy', 'medium', 'strong', None, None]
    """
    spec = name.strip().partition(" ")[0].partition("#")[0]
    try:
        make_player(spec, 0)
    except NotationError:
        return None
    return strength_of(spec)


def player_factory(spec: str) -> Callable[[int], Player]:
    """A checked spec as a function of the seed (the spec is validated now)."""
    make_player(spec, 0)
    return lambda seed: make_player(spec, seed)


def _is_level(text: str) -> bool:
    """Whether ``text`` names a PIMC level (the L of ``pimc:L`` and ``ipimc:L``)."""
    return text.isascii() and text.isdigit() and int(text) in LEVELS
