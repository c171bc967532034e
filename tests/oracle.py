"""Reference helpers for the solver tests: a plain minimax oracle and a seeded endgame generator.

The oracle is deliberately naive: full minimax over ``Position.legal_moves()`` with no pruning,
no table, no bounds and no move ordering, so the only thing it shares with the solver is the
rules engine. The value is the caller's net points (RULES.md M1): the caller maximises, both
non-callers minimise, and a finished deal is worth ``pos.outcome.points[pos.caller]``.

The generator deals with ``lukfu_solver.game.deal_hands(random.Random(seed))``, picks a random
caller, and plays random legal moves forward (never a claim) until every seat holds ``n`` cards
at a trick boundary, then optionally makes 1 or 2 plays of the next trick. It returns a fresh
position parsed from the text form, so nothing of the playout (move stack, cached state) leaks
into the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lukfu_solver.game import deal_hands
from lukfu_solver.plays import CLAIM, Play
from lukfu_solver.position import Position

# ---------------------------------------------------------------- the oracle


def _minimax(pos: Position) -> int:
    if pos.outcome is not None:
        return pos.outcome.points[pos.caller]
    maximizing = pos.to_move == pos.caller
    best = None
    for m in list(pos.legal_moves()):
        pos.push(m)
        v = _minimax(pos)
        pos.pop()
        if best is None or (v > best if maximizing else v < best):
            best = v
    assert best is not None, f"no legal move in an unfinished position: {pos}"
    return best


def oracle_value(pos: Position) -> int:
    """The exact value of ``pos`` (M1) by plain minimax; ``pos`` itself is left untouched."""
    return _minimax(pos.copy())


def oracle_move_values(pos: Position) -> dict[Play, int]:
    """The oracle value of the child after each legal move of ``pos`` (which must not be over)."""
    p = pos.copy()
    out: dict[Play, int] = {}
    for m in list(p.legal_moves()):
        p.push(m)
        out[m] = _minimax(p)
        p.pop()
    return out


# ---------------------------------------------------------------- the endgame generator


def _random_play(pos: Position, rng: random.Random, max_size: int) -> None:
    """Push one random legal move that is not a claim (leads no bigger than ``max_size``)."""
    moves = [m for m in pos.legal_moves() if m.kind != CLAIM and (pos.trick or m.size <= max_size)]
    assert moves, f"no move to play in {pos}"
    pos.push(rng.choice(moves))


def random_endgame(seed: int, n: int, plays: int = 0, caller: int | None = None, multi: bool = False) -> Position:
    """A seeded random position with ``n`` cards a hand and ``plays`` (0–2) plays of the trick made.

    From a deal of ``seed`` and a random caller (or ``caller``), random legal non-claim moves are
    played until every hand holds exactly ``n`` cards at a trick boundary (leads are drawn only
    among those small enough not to overshoot), then ``plays`` random plays of the next trick.
    ``n`` counts the cards a seat still holds plus those it has put into the trick in progress.
    With ``multi`` the lead of the trick in progress is always a set or a run; a deal whose
    leader has none raises ``LookupError`` (see :func:`multi_lead_endgames`).
    """
    assert 1 <= n <= 12 and 0 <= plays <= 2
    rng = random.Random(seed)
    hands = deal_hands(rng)
    if caller is None:
        caller = rng.randrange(3)
    pos = Position.start(hands, caller)
    while pos.cards_per_hand() > n:
        room = pos.cards_per_hand() - n
        _random_play(pos, rng, room)  # the lead
        _random_play(pos, rng, room)
        _random_play(pos, rng, room)
    assert pos.cards_per_hand() == n and not pos.trick and not pos.is_over
    if plays:  # the lead of the trick in progress: a set or run half the time when there is one
        multi_leads = [m for m in pos.legal_moves() if m.kind != CLAIM and m.size > 1]
        if multi_leads and (multi or rng.random() < 0.5):
            pos.push(rng.choice(multi_leads))
        elif multi:
            raise LookupError(f"seed {seed}: the leader has no set or run")
        else:
            _random_play(pos, rng, n)
    for _ in range(plays - 1):
        _random_play(pos, rng, n)
    fresh = Position.parse(str(pos))
    assert str(fresh) == str(pos)
    return fresh


def endgame_mix(count: int, sizes: tuple[int, ...], seed0: int) -> list[Position]:
    """``count`` positions cycling through hand sizes ``sizes`` and 0, 1, 2 plays of the trick."""
    out = []
    for i in range(count):
        n = sizes[i % len(sizes)]
        plays = (i // len(sizes)) % 3
        out.append(random_endgame(seed0 + i, n, plays))
    return out


def multi_lead_endgames(count: int, sizes: tuple[int, ...], seed0: int) -> list[Position]:
    """``count`` mid-trick positions (1 or 2 plays made) whose trick was led with a set or run,
    cycling through hand sizes ``sizes``; seeds that give the leader no set or run are skipped."""
    out = []
    seed = seed0
    while len(out) < count:
        i = len(out)
        try:
            out.append(random_endgame(seed, sizes[i % len(sizes)], 1 + (i // len(sizes)) % 2, multi=True))
        except LookupError:
            pass
        seed += 1
    return out


def open_endgames(
    seed0: int,
    seeds: int,
    shape: Callable[[int], tuple[int, int, bool]],
    where: Callable[[Position], bool],
    most_sevens: int | None = None,
) -> list[Position]:
    """The seeded endgames ``random_endgame(seed0 + i, *shape(i))`` for ``i`` below ``seeds``
    (shape: cards a hand, plays of the trick made, a set or run led) where ``where`` holds and
    ``value_bounds`` leave the value open: the positions a bound under test runs on (the
    search's bounds choose the cases only; the oracle's values never use them). Seeds whose
    leader holds no set or run for a ``multi`` lead are skipped; with ``most_sevens``, only that
    many of seven cards (the oracle takes seconds each there)."""
    from lukfu_solver.search.bounds import value_bounds

    out = []
    sevens = 0
    for i in range(seeds):
        n, plays, multi = shape(i)
        if n == 7 and most_sevens is not None and sevens >= most_sevens:
            continue
        try:
            pos = random_endgame(seed0 + i, n, plays, multi=multi)
        except LookupError:
            continue
        if not where(pos):
            continue
        lo, hi = value_bounds(pos)
        if lo < hi:
            out.append(pos)
            sevens += n == 7
    return out


# ---------------------------------------------------------------- a faster exact reference


def _alphabeta(pos: Position, alpha: int, beta: int) -> int:
    if pos.outcome is not None:
        return pos.outcome.points[pos.caller]
    if pos.to_move == pos.caller:
        best = -100
        for m in list(pos.legal_moves()):
            pos.push(m)
            v = _alphabeta(pos, alpha, beta)
            pos.pop()
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best
    best = 100
    for m in list(pos.legal_moves()):
        pos.push(m)
        v = _alphabeta(pos, alpha, beta)
        pos.pop()
        if v < best:
            best = v
            if best < beta:
                beta = best
                if alpha >= beta:
                    break
    return best


def oracle_ab(pos: Position) -> int:
    """The exact value of ``pos`` by textbook alpha-beta (no table, no ordering, no bounds).

    Exact like :func:`oracle_value` (the tests check that they agree) but fast enough for 5-card
    hands; written here, independently of ``lukfu_solver.search.reference``.
    """
    return _alphabeta(pos.copy(), -100, 100)


_AB_VALUES: dict[str, int] = {}


def oracle_ab_once(pos: Position) -> int:
    """:func:`oracle_ab` of ``pos``, computed once per position (by its text form) for the whole
    test run: the bound tests ask for the same endgames' values in several tests."""
    text = str(pos)
    if text not in _AB_VALUES:
        _AB_VALUES[text] = oracle_ab(pos)
    return _AB_VALUES[text]


# ---------------------------------------------------------------- related positions


def playout_positions(seed: int, n: int) -> list[Position]:
    """Every position met on one random playout (claims included) from a ``random_endgame``
    of ``n`` cards to the end of the deal, the start first and the finished position last."""
    rng = random.Random(seed ^ 0x5EED)
    pos = random_endgame(seed, n)
    out = [pos.copy()]
    while not pos.is_over:
        pos.push(rng.choice(list(pos.legal_moves())))
        out.append(pos.copy())
    return out


def variants(pos: Position, rng: random.Random) -> list[tuple[str, Position]]:
    """Valid positions that differ from ``pos`` in one thing the value may depend on but the
    hands and the trick do not show: the caller, how the fu are split, or whether a card was
    played face up or face down where that changes some seat's Old cards (R12).

    Returns (kind, position) pairs, kind ``"caller"``, ``"fu"`` or ``"face-up"``: up to two of
    the first two kinds and three of the last, drawn with ``rng``. A solver whose table key forgot one of these
    would hand the value of one of them to another.
    """
    from lukfu_solver.cards import ALL_CARDS, format_cards, iter_cards, old_cards, parse_cards
    from lukfu_solver.errors import NotationError

    hands_t, tm, caller, fu_t, up_t, trick_t = str(pos).split()
    fu = [int(f) for f in fu_t.split(",")]
    callers = [f"{hands_t} {tm} {c} {fu_t} {up_t} {trick_t}" for c in "012" if c != caller]
    splits = []
    for i in range(3):
        for j in range(3):
            if i != j and fu[i] > 0:
                g = fu[:]
                g[i] -= 1
                g[j] += 1
                splits.append(f"{hands_t} {tm} {caller} {','.join(map(str, g))} {up_t} {trick_t}")
    up = parse_cards(up_t)
    in_trick = pos.trick_faceup

    def olds(faceup: int) -> list[int]:
        return [old_cards(h, faceup | in_trick) for h in pos.hands]

    now = olds(up)
    flips = []
    for c in iter_cards(up | pos.facedown):  # only flips that change some seat's Old cards (R12)
        new_up = up ^ (1 << c)
        if olds(new_up) != now:
            flips.append(f"{hands_t} {tm} {caller} {fu_t} {format_cards(new_up & ALL_CARDS)} {trick_t}")
    out = []
    for kind, lines, k in (("caller", callers, 2), ("fu", splits, 2), ("face-up", flips, 3)):
        rng.shuffle(lines)
        taken = 0
        for line in lines:
            if taken == k:
                break
            try:
                out.append((kind, Position.parse(line)))
            except NotationError:
                continue
            taken += 1
    return out


def twin_pairs(per_kind: int, sizes: tuple[int, ...], seed0: int) -> list[tuple[str, Position, int, Position, int]]:
    """Pairs of :func:`variants` whose values differ: (kind, a, value of a, b, value of b), at
    least ``per_kind`` of each kind (one pair per kind per base position, values by
    :func:`oracle_ab`). Solving both with one table shows that its key tells them apart."""
    rng = random.Random(seed0)
    out: list[tuple[str, Position, int, Position, int]] = []
    need = {"caller": per_kind, "fu": per_kind, "face-up": per_kind}
    seed = seed0
    while any(need.values()):
        base = random_endgame(seed, sizes[seed % len(sizes)], (seed // len(sizes)) % 3)
        seed += 1
        vb = None
        done = set()
        for kind, v in variants(base, rng):
            if not need[kind] or kind in done:
                continue
            if vb is None:
                vb = oracle_ab(base)
            vv = oracle_ab(v)
            if vv != vb:
                out.append((kind, base, vb, v, vv))
                need[kind] -= 1
                done.add(kind)
    return out
