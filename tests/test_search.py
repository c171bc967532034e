"""The exact solver (lukfu_solver.search.reference) against independent references.

Every test uses the public API only (``Solver().solve``, ``value_bounds``, ``plain_alphabeta``)
and checks answers, never node counts or move order, so any speed-up of the search must leave
all of them passing. The references live in ``tests/oracle.py``: a plain minimax (no pruning, no
table) and a textbook alpha-beta checked against it; positions come from seeded random deals
played forward at random (``random_endgame``), plus hand-made positions for every kind of trick.

Values are the caller's net points (RULES.md M1): even integers in [-14, 14].
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from oracle import (
    endgame_mix,
    oracle_ab,
    oracle_move_values,
    oracle_value,
    playout_positions,
    random_endgame,
    twin_pairs,
    variants,
)
from search_cases import P, check_value, disagreements, guard, limit_positions, mix, mix5, multi_lead  # noqa: E402

from lukfu_solver.cards import ALL_CARDS, format_cards, parse_cards  # noqa: E402
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, RUN, SET, SINGLE  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import (  # noqa: E402
    Solver,
    plain_alphabeta,
    reach,
    reduced_moves,
    trick_claim,
    tt_key,
    value_bounds,
)
from lukfu_solver.search import switches as S  # noqa: E402


@pytest.fixture(autouse=True)
def no_hang():
    """Every test of this module fails after 300 s rather than hanging the suite."""
    with guard(300):
        yield


# ---------------------------------------------------------------- the references themselves


def test_generator_makes_the_positions_asked_for():
    for seed in range(60):
        n = 1 + seed % 6
        plays = seed % 3
        pos = random_endgame(seed, n, plays)
        assert pos.cards_per_hand() == n
        assert len(pos.trick) == plays
        assert not pos.is_over
        assert str(Position.parse(str(pos))) == str(pos)
        assert random_endgame(seed, n, plays) == pos  # deterministic
    callers = {random_endgame(s, 3).caller for s in range(30)}
    assert callers == {0, 1, 2}


def test_oracle_values_finished_positions_by_their_outcome():
    rng = random.Random(5)
    seen = set()
    for seed in range(40):
        pos = random_endgame(seed, 2)
        while not pos.is_over:
            pos.push(rng.choice(list(pos.legal_moves())))
        v = pos.outcome.points[pos.caller]
        assert oracle_value(pos) == v == oracle_ab(pos)
        seen.add(pos.outcome.how)
    assert seen >= {"claim", "end"}


@pytest.mark.slow
def test_alphabeta_reference_equals_minimax():
    for line, want in mix()[::3]:
        assert oracle_ab(Position.parse(line)) == want, line
    for line, want in multi_lead():
        pos = Position.parse(line)
        if pos.cards_per_hand() <= 5:
            assert oracle_value(pos) == want, line


@pytest.mark.slow
def test_mix_is_varied():
    """The random endgames cover every trick phase, every caller and a spread of values."""
    values = {v for _, v in mix()}
    assert len(values) >= 9 and min(values) < 0 < max(values)
    positions = [Position.parse(line) for line, _ in mix()]
    assert {len(p.trick) for p in positions} == {0, 1, 2}
    assert {p.caller for p in positions} == {0, 1, 2}
    assert {p.cards_per_hand() for p in positions} == {1, 2, 3, 4}
    assert sum(p.can_claim() for p in positions) >= 20
    assert {p.trick[0].kind for p in positions if p.trick} >= {SINGLE, SET}
    assert any(len(p.trick) == 2 and p.trick[1].kind == DISCARD for p in positions)
    assert any(len(p.trick) == 2 and p.trick[1].kind != DISCARD for p in positions)
    multi = [Position.parse(line) for line, _ in multi_lead()]
    assert {p.trick[0].kind for p in multi} == {SET, RUN}
    assert {len(p.trick) for p in multi} == {1, 2}
    assert any(p.trick[0].size == 4 for p in multi)


# ---------------------------------------------------------------- exact agreement (1,000 endgames)


@pytest.mark.slow
def test_fresh_solver_matches_minimax_on_1000_endgames():
    bad = []
    for line, want in mix():
        pos = Position.parse(line)
        res = Solver().solve(pos)
        assert str(pos) == line, "solve changed the position it was given"
        check_value(res.value, line)
        assert res.complete and res.lower == res.upper == res.value, line
        if res.value != want:
            bad.append(f"{line!r}: solver {res.value}, minimax {want}")
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_shared_solver_matches_minimax_on_1000_endgames():
    """One Solver for every position, forwards and then backwards: the table persists between
    solves and must never carry a value from one position to another."""
    solver = Solver()
    data = mix()
    bad = disagreements(data, solver.value)
    bad += disagreements(data[::-1], lambda p: solver.solve(p).value)
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_plain_alphabeta_matches_minimax_on_1000_endgames():
    bad = disagreements(mix(), lambda p: plain_alphabeta(p)[0])
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_solver_matches_reference_on_5_card_endgames():
    shared = Solver()
    bad = disagreements(mix5(), lambda p: Solver().solve(p).value)
    bad += disagreements(mix5(), lambda p: shared.solve(p).value)
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_solver_matches_reference_on_set_and_run_tricks():
    shared = Solver()
    bad = disagreements(multi_lead(), lambda p: Solver().solve(p).value)
    bad += disagreements(multi_lead(), lambda p: shared.solve(p).value)
    bad += disagreements(multi_lead(), lambda p: plain_alphabeta(p)[0])
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_shared_solver_on_positions_that_differ_only_off_the_board():
    """Groups of positions with the same hands and trick but another caller, another split of
    the fu, or a card face up instead of face down (Old cards, R12), solved one after another
    by one Solver: a table key that missed any of these would reuse the wrong value."""
    rng = random.Random(77)
    solver = Solver()
    bad = []
    differing = 0
    for base in endgame_mix(80, (2, 3, 3, 4), seed0=20_000):
        group = [base] + [p for _, p in variants(base, rng)]
        want = [oracle_ab(p) for p in group]
        differing += len(set(want)) > 1
        for order in (list(zip(group, want, strict=True)), list(zip(group, want, strict=True))[::-1]):
            for p, w in order:
                got = solver.solve(p).value
                if got != w:
                    bad.append(f"{str(p)!r}: shared solver {got}, reference {w}")
    assert not bad, "\n".join(bad)
    assert differing >= 25, "the variants should often change the value, or this test proves little"


@cache
def twins():
    return tuple(twin_pairs(40, (2, 3, 4), seed0=20_000))


@pytest.mark.slow
def test_shared_solver_tells_twins_apart():
    """Pairs of positions that differ only in the caller, the split of the fu, or one card face
    up instead of face down, and whose values differ (40 pairs of each kind). Each pair is solved
    by one Solver, in both orders: the table must keep them apart."""
    assert {kind for kind, *_ in twins()} == {"caller", "fu", "face-up"}
    bad = []
    for first in (0, 1):
        solver = Solver()
        for kind, a, va, b, vb in twins():
            pair = [(a, va), (b, vb)]
            for p, want in pair if first == 0 else pair[::-1]:
                got = solver.solve(p).value
                if got != want:
                    bad.append(f"{kind} twin {str(p)!r}: shared solver {got}, reference {want}")
    assert not bad, "\n".join(bad)


# Positions where the choice between discarding the higher or the lower of two cards with
# nothing live between them matters: the card kept stays Old or not (R12), and for a
# non-caller that decides which single it may lead (R7). In the first, seat 0 must discard to
# T1 and should throw M9, so that M8 is no longer Old and may be led (M9 is face down, so M8
# cannot be beaten); keeping M9 leaves S3 as the only non-Old card, which must be led first.
# (Found by searching random endgames against a solver that treated such cards as equal.)
DISCARD_CHOICES = [
    ("C7S39M89/C58S25/C6S68M1 0 1 2,1,4 M34567T245679 T1,xC2", -2),
    ("C8S189M6/C1M3T68/S267M1 0 1 0,2,5 C23469M89T23459 M5,M7", -6),
    ("S2489T9/S7T378/C2S56T1 0 1 1,2,4 C56M123456789T56 C8,xC3", 0),
]


@pytest.mark.parametrize("line,value", DISCARD_CHOICES)
def test_discard_choice_between_neighbouring_cards(line, value):
    pos = Position.parse(line)
    assert oracle_ab(pos) == value
    assert Solver().solve(pos).value == value
    assert Solver(driver="mtdf").solve(pos).value == value


@pytest.mark.slow
def test_shared_solver_along_playouts():
    """Positions of one deal, from five cards a hand to the end, share their subtrees: a shared
    Solver meets its own table entries again, both as it goes down the line and back up it."""
    solver = Solver()
    bad = []
    for seed in range(12):
        line = playout_positions(30_000 + seed, 5)
        want = [oracle_ab(p) for p in line]
        pairs = list(zip(line, want, strict=True))
        for p, w in pairs + pairs[::-1]:
            got = solver.solve(p).value
            if got != w:
                bad.append(f"{str(p)!r} ({len(p.trick)} plays): shared solver {got}, reference {w}")
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------- hand-made positions

# (name, position, exact value). Everything not in a hand, in the trick or listed as face down
# when it was built is face up, so Old cards (R12) follow from the face-up list as written.
HAND_MADE = [
    # Single leads. Seat 1 (caller, 4 fu) leads: C1 cannot be beaten (R8), so C1 and S8 (S9 is
    # face down and nobody holds it) take both tricks: 6 fu, T = 6, +2. A claim is not open at
    # once: 4 fu + one Old card (S8 is not Old: its S9 went face down, R12).
    ("C1 led cannot be beaten", "C4S3/C1S8/C5S2 1 1 3,4,3 C236789S14567M123456789T123456789 -", 2),
    # The same with C2 for C1: seat 2 must beat C2 with C5 (R9), so the caller stops at 5: void.
    ("C2 led is beaten", "C4S3/C2S8/C5S2 1 1 3,4,3 C136789S14567M123456789T123456789 -", 0),
    ("T1 led cannot be beaten", "S3T4/S8T1/S2T5 1 1 3,4,3 C123456789S14567M123456789T236789 -", 2),
    # Seat 0 (caller, 5 fu) led C1: C7 and C8 cannot beat it, seat 0 ends at 6 (R15): +2.
    ("C1 led mid-trick", "-/C7/C8 1 0 5,3,3 C234569S123456789M123456789T123456789 C1", 2),
    # With C2 led, seat 1 must beat with C7 and seat 2 with C8: seat 0 stays at 5, void.
    ("C2 led mid-trick", "-/C7/C8 1 0 5,3,3 C134569S123456789M123456789T123456789 C2", 0),
    ("T1 led mid-trick", "-/T7/T8 1 0 5,3,3 C123456789S123456789M123456789T234569 T1", 2),
    # Seat 1 (5 fu) must beat S5 with S7; seat 2's S6 beats the lead but not the current best
    # play S7 (R9), so seat 2 discards and seat 1 wins at six: the caller pays 2.
    ("follower must beat the best play", "-/S7/S6 1 0 3,5,3 C123456789S123489M123456789T123456789 S5", -2),
    # Seat 2 beats seat 1's S7 with S8: nobody reaches six, void.
    ("second follower beats the first", "-/S7/S8 1 0 3,5,3 C123456789S123469M123456789T123456789 S5", 0),
    # Sets. Seat 0 (the passed Master) led three 5s; seat 1 (caller, 4 fu) must beat with 6s.
    # Seat 2's three 7s beat the 6s: seat 2 wins 3 fu, six, and the caller pays 2.
    ("set: second follower beats", "-/C6S6M6/C7S7T7 1 1 2,4,3 C123489S123489M1234789T12345689 C5S5M5", -2),
    # Seat 2 has two 7s only: seat 1 wins 3 fu, seven: +4.
    ("set: first follower wins", "-/C6S6M6/C7S7M8 1 1 2,4,3 C123489S123489M123479T123456789 C5S5M5", 4),
    # A led set of 1s is beaten only by 9s (R8): the 2s and 3s must be discarded, seat 0 ends at
    # 5 and nobody reaches six: void.
    ("set of 1s: only 9s beat", "-/C2S2M2/C3S3M3 1 1 2,4,3 C456789S456789M456789T123456789 C1S1M1", 0),
    ("set of 1s beaten by 9s (caller)", "-/S9M9T9/C2S2M2 1 1 2,4,3 C3456789S345678M345678T12345678 C1S1M1", 4),
    ("set of 1s beaten by 9s (non-caller)", "-/C2S2M2/S9M9T9 1 1 2,4,3 C3456789S345678M345678T12345678 C1S1M1", -2),
    # Seat 1 (caller, 2 fu) led four 5s: three 6s or three 7s cannot beat a four-card set (R8),
    # seat 1 wins 4 fu, six: +2.
    ("four-card set unbeaten by threes", "C7S27M7/-/C26S6M6 2 1 3,2,3 C13489S13489M123489T12346789 C5S5M5T5", 2),
    # Seat 2 holds all four 6s and must beat: seat 2 wins 4 fu, seven, the caller pays 4.
    ("four-card set beaten by four 6s", "C7S27M7/-/C6S6M6T6 2 1 3,2,3 C123489S13489M123489T1234789 C5S5M5T5", -4),
    # Runs. Seat 0 led C123; seat 1 (caller, 4 fu) must beat with C456; seat 2's C789 beats that
    # (same suit, higher top): seat 2 wins at six, -2.
    ("run: same suit higher top", "-/C456/C789 1 1 2,4,3 S123456789M123456789T123456789 C123", -2),
    # Seat 2's S123 beats C456 by suit although its top is lower: -2.
    ("run: higher suit lower top", "-/C456/S123 1 1 2,4,3 C789S456789M123456789T123456789 C123", -2),
    # Nobody beats C456: seat 1 wins 3 fu, seven: +4.
    ("run: first follower wins", "-/C456/C78T5 1 1 2,4,3 C9S123456789M123456789T12346789 C123", 4),
    # Seat 1 beats C123 with S234 (higher suit); C789 is a lower suit and cannot beat S234: +4.
    ("run: lower suit higher top loses", "-/S234/C789 1 1 2,4,3 C456S156789M123456789T123456789 C123", 4),
    # S234 led: C789 and C456 are a lower suit, both discard; seat 0 reaches 5 only: void.
    ("run: nobody can beat", "-/C789/C456 1 1 2,4,3 C123S156789M123456789T123456789 S234", 0),
    # Beating while keeping a run. Seat 0 led S2; the caller (seat 1, 3 fu) must beat and holds
    # S3457 (S6 is face up). Only S7 keeps the run S345, which nobody can beat next trick: four
    # fu, seven, +4. Beating with S3, S4 or S5 breaks it, and seat 0's S8 then takes a trick: 0.
    ("follower beats and keeps its run", "C24S8/S3457/C5M4T24 1 1 2,3,3 C136789S169M12356789T1356789 S2", 4),
    # A forced discard (R9). Seat 0 (caller, 4 fu) led C5 and keeps S6. Seat 1 has no Coins and
    # must discard S7 or M2: keeping S7 beats S6 next trick and holds the caller to 5 (void);
    # discarding S7 lets the caller win both tricks (+2). Face down, S7 still does not make S6
    # Old (R12), so the caller cannot claim at 5.
    ("forced discard", "S6/S7M2/T34 1 0 4,3,3 C12346789S1234589M13456789T1256789 C5", 0),
    # Claims (R14). Caller with 4 fu + C9, S9 claims T = 6: +2. Playing on cannot do better: the
    # T3 is beaten by T5.
    ("caller claims at once", "C9S9T3/M23T5/C23S2 0 0 4,2,3 C145678S1345678M1456789T1246789 -", 2),
    # Non-caller seat 1 (4 fu + C9, S9) claims T = 6: -2. Playing on, R7 forces the lead of M2,
    # which the caller beats with M5, then cashes T2, T3 for six.
    ("non-caller claims at once", "M5T23/C9S9M2/C23S2 1 0 3,4,2 C145678S1345678M1346789T1456789 -", -2),
    # Playing on beats claiming. The caller could claim 4 + 2 = 6 (+2), but T8 also wins (T9 is
    # face down, so T8 is not Old, and nobody holds T9): three tricks, seven fu, +4.
    ("caller plays on past a claim", "C9S9T8/C2M23/C3S23 0 0 4,2,3 C145678S145678M1456789T1234567 -", 4),
    # Seat 1 (non-caller) could claim six (-2) but M8 wins too (M9 face down): seven fu, -4.
    ("non-caller plays on past a claim", "T234/C9S9M8/C23S2 1 0 3,4,2 C145678S1345678M1234567T156789 -", -4),
    # R15. Seat 0 (caller, 5 fu) led T4 to the last trick; nobody beats it: six fu, +2.
    ("R15: last trick makes six", "-/T2/C3 1 0 5,3,3 C12456789S123456789M123456789T1356789 T4", 2),
    # Seat 0 (caller) has 6 fu, seat 1 has 5 and led C4 to the last trick; nobody beats it: six
    # against six, the last trick's winner (seat 1) wins with T = 6: -2.
    ("R15: six against six, non-caller", "S7/-/M2 2 0 6,5,0 C12356789S12345689M13456789T123456789 C4", -2),
    # The same but the caller holds C6 and must beat: seven fu for the caller, +4.
    ("R15: caller takes the last trick", "C6/-/M2 2 0 6,5,0 C1235789S123456789M13456789T123456789 C4", 4),
    # Caller (5 fu) led S5 to the last trick against seat 1's 6: six against six, the caller
    # won the last trick: +2.
    ("R15: six against six, caller", "-/M3/C2 1 0 5,6,0 C13456789S12346789M12456789T123456789 S5", 2),
    # Caller at 5 leads S5 (no claim: S6 is out); seat 1 beats with S6: 5, 5, 2 and void.
    ("R15: void", "S5/S6/C2 0 0 5,4,2 C13456789S1234789M123456789T123456789 -", 0),
    # R6. Seat 1 called, so the Master (seat 0, 2 fu) may not lead S5678, which nobody could beat
    # (it would give the Master six). A three-card run is beaten by the caller's M234 (higher
    # suit) and any single by S9; either way the caller ends with seven fu: +4.
    ("R6: passed Master", "S5678/S9M234/C246T2 0 1 2,3,3 C135789S1234M156789T13456789 -", 4),
    # The same cards with the Master as caller: S5678 wins four fu, six: +2.
    ("R6: the Master as caller", "S5678/S9M234/C246T2 0 0 2,3,3 C135789S1234M156789T13456789 -", 2),
    # R6 with a set: the passed Master may not lead C5S5M5T5, which three 6s cannot beat. Any
    # three 5s are beaten by the caller's 6s (seven fu with the T9); the single it must lead
    # (R7: T5) falls to T9, and the caller then cashes its 6s: seven fu either way, +4.
    ("R6: passed Master with four 5s", "C5S5M5T5/C6S6M6T9/C23S3M4 0 1 2,3,3 C14789S124789M123789T1234678 -", 4),
    # The Master as caller leads the four 5s: four fu, six, +2.
    ("R6: four 5s, the Master as caller", "C5S5M5T5/C6S6M6T9/C23S3M4 0 0 2,3,3 C14789S124789M123789T1234678 -", 2),
    # R7 in the end. Non-caller seat 1 (4 fu) holds C7, C8 that nobody can beat (C9 is face
    # down) and would reach six leading them; but S2 is a non-Old card of a higher suit and
    # must be led first. The caller beats it with S5 and claims 4 + T2 + T3 (Old) = 6: +2.
    ("R7: non-caller must lead into the caller", "S5T23/C78S2/M246 1 0 3,4,2 C123456S1346789M135789T1456789 -", 2),
]


@cache
def hand_made_results(line: str):
    pos = Position.parse(line)
    return Solver().solve(pos, all_moves=True), oracle_value(pos), oracle_move_values(pos)


@pytest.mark.slow
@pytest.mark.parametrize("name,line,value", HAND_MADE, ids=[c[0] for c in HAND_MADE])
def test_hand_made_position(name, line, value):
    pos = Position.parse(line)
    assert str(pos) == line  # written in canonical form, valid as written
    res, want, children = hand_made_results(line)
    assert want == value, f"the minimax oracle disagrees with the hand analysis of {name}"
    assert res.value == value
    assert Solver().solve(pos).value == value
    assert plain_alphabeta(pos)[0] == value
    assert res.moves == children
    lo, hi = value_bounds(pos)
    assert lo <= value <= hi


def moves_of(line: str) -> dict[str, int]:
    res, _, _ = hand_made_results(line)
    return {str(m): v for m, v in res.moves.items()}


def line_of(name: str) -> str:
    return next(line for n, line, _ in HAND_MADE if n == name)


def test_hand_made_move_details():
    # the only play of seat 1 against C1: a discard (C7 cannot beat a led C1)
    assert set(moves_of(line_of("C1 led mid-trick"))) == {"xC7"}
    assert moves_of(line_of("C2 led mid-trick")) == {"C7": 0}
    # the 2s cannot beat a led set of 1s: discard only
    assert set(moves_of(line_of("set of 1s: only 9s beat"))) == {"xC2S2M2"}
    assert moves_of(line_of("follower beats and keeps its run")) == {"S3": 0, "S4": 0, "S5": 0, "S7": 4}
    # the forced discard: which card goes matters
    assert moves_of(line_of("forced discard")) == {"xS7": 2, "xM2": 0}
    # the claim is worth 2 for the caller, and so are the sure 9s; T3 loses the lead
    assert moves_of(line_of("caller claims at once")) == {"claim": 2, "C9": 2, "S9": 2, "T3": 0}
    assert moves_of(line_of("non-caller claims at once")) == {"claim": -2, "M2": 2}
    res, _, _ = hand_made_results(line_of("non-caller claims at once"))
    assert res.best == CLAIM_PLAY
    # playing on: the claim is available but worth less than the best line
    on = moves_of(line_of("caller plays on past a claim"))
    assert on["claim"] == 2 and max(on.values()) == 4
    res, _, _ = hand_made_results(line_of("caller plays on past a claim"))
    assert res.best.kind != CLAIM
    assert moves_of(line_of("non-caller plays on past a claim")) == {"claim": -2, "M8": -4}
    res, _, _ = hand_made_results(line_of("non-caller plays on past a claim"))
    assert res.best == P("M8")
    # R6: no four-card lead for the passed Master; the Master as caller wins only with S5678
    passed = moves_of(line_of("R6: passed Master"))
    assert "S5678" not in passed and all(v == 4 for v in passed.values())
    assert set(passed) == {"S5", "S6", "S7", "S8", "S567", "S678"}
    master = moves_of(line_of("R6: the Master as caller"))
    assert master["S5678"] == 2 and all(v == -4 for m, v in master.items() if m != "S5678")
    res, _, _ = hand_made_results(line_of("R6: the Master as caller"))
    assert res.best == P("S5678")
    assert "C5S5M5T5" not in moves_of(line_of("R6: passed Master with four 5s"))
    assert moves_of(line_of("R6: four 5s, the Master as caller"))["C5S5M5T5"] == 2
    assert moves_of(line_of("R7: non-caller must lead into the caller")) == {"S2": 2}


# ---------------------------------------------------------------- principal variation


@cache
def pv_positions() -> tuple[str, ...]:
    return tuple(str(p) for p in endgame_mix(45, (4, 5, 6), seed0=60_000))


@pytest.mark.slow
def test_principal_variation_replays_to_the_value():
    bad = []
    for line in pv_positions():
        pos = Position.parse(line)
        res = Solver().solve(pos)
        check_value(res.value, line)
        assert res.pv, f"{line!r}: empty principal variation"
        assert res.best == res.pv[0], line
        p = pos.copy()
        for m in res.pv:
            assert p.is_legal(m), f"{line!r}: {m} in the pv is not legal at {p}"
            p.push(m)
        assert p.is_over, f"{line!r}: the pv stops before the end of the deal"
        if p.outcome.points[p.caller] != res.value:
            bad.append(f"{line!r}: pv ends at {p.outcome.points[p.caller]}, value {res.value}")
    assert not bad, "\n".join(bad)


def test_principal_variation_is_optimal_at_every_step():
    """Along the pv of 4- and 5-card positions, every position keeps the root value (reference)."""
    bad = []
    for line in pv_positions():
        pos = Position.parse(line)
        if pos.cards_per_hand() > 5:
            continue
        res = Solver().solve(pos)
        p = pos.copy()
        for i, m in enumerate(res.pv):
            p.push(m)
            if i < 4 and not p.is_over:  # the early steps carry the decisions
                v = oracle_ab(p)
                if v != res.value:
                    bad.append(f"{line!r}: after pv[:{i + 1}] the value is {v}, not {res.value}")
    assert not bad, "\n".join(bad)


def test_finished_position_solves_to_its_outcome():
    rng = random.Random(11)
    for seed in range(30):
        pos = random_endgame(seed + 70_000, 2, seed % 3)
        while not pos.is_over:
            pos.push(rng.choice(list(pos.legal_moves())))
        v = pos.outcome.points[pos.caller]
        res = Solver().solve(pos)
        assert res.value == res.lower == res.upper == v
        assert res.best is None and res.pv == [] and res.complete
        assert value_bounds(pos) == (v, v)
    # a finished position parsed from text (R15): the hands ran out
    end = Position.parse("-/-/- 1 0 6,6,0 C123456789S123456789M123456789T123456789 -")
    assert end.is_over and end.outcome.winner == 1
    assert value_bounds(end) == (-2, -2) and Solver().solve(end).value == -2


# ---------------------------------------------------------------- all-moves mode


@pytest.mark.slow
def test_all_moves_values_match_the_oracle():
    bad = []
    for line, want in mix()[::7]:
        pos = Position.parse(line)
        res = Solver().solve(pos, all_moves=True)
        legal = list(pos.legal_moves())
        assert set(res.moves) == set(legal) and len(res.moves) == len(legal), line
        pick = max if pos.to_move == pos.caller else min
        assert pick(res.moves.values()) == res.value == want, line
        assert res.moves[res.best] == res.value, line
        children = oracle_move_values(pos)
        for m, v in res.moves.items():
            check_value(v, line)
            if v != children[m]:
                bad.append(f"{line!r} move {m}: solver {v}, minimax {children[m]}")
    assert not bad, "\n".join(bad)


def test_all_moves_on_larger_positions_is_consistent():
    solver = Solver()  # shared: all-moves after other solves must still be exact
    for line in pv_positions()[::3]:
        pos = Position.parse(line)
        res = solver.solve(pos, all_moves=True)
        legal = list(pos.legal_moves())
        assert set(res.moves) == set(legal) and len(res.moves) == len(legal), line
        pick = max if pos.to_move == pos.caller else min
        assert pick(res.moves.values()) == res.value, line
        assert res.moves[res.best] == res.value, line
        for m in legal[:3]:
            p = pos.copy()
            p.push(m)
            assert Solver().solve(p).value == res.moves[m], f"{line!r} move {m}"


# ---------------------------------------------------------------- bounds


@pytest.mark.slow
def test_value_bounds_bracket_the_value():
    for line, want in mix() + mix5() + multi_lead():
        lo, hi = value_bounds(Position.parse(line))
        assert lo <= want <= hi, f"{line!r}: bounds ({lo}, {hi}) miss {want}"
        check_value(lo, line)
        check_value(hi, line)


def test_trick_claim_fires_and_stays_a_true_bound():
    """R9, R14: once nobody still to play can beat the trick's best play, its player wins the
    trick, and the claim it can then force bounds the value. The bound must fire on some of
    these positions (else the bracket test above says nothing about it) and never cut off the
    exact value."""
    fired = 0
    for line, want in mix() + mix5() + multi_lead():
        pos = Position.parse(line)
        if not pos.trick or pos.outcome is not None:
            continue
        t, seat = trick_claim(pos)
        if t < 6:
            continue
        fired += 1
        bound = 2 * (t - 5)
        if seat == pos.caller:
            assert want >= bound, f"{line!r}: the caller's sure claim {t} promises {bound}, value {want}"
        else:
            assert want <= -bound, f"{line!r}: seat {seat}'s sure claim {t} promises {-bound}, value {want}"
    assert fired >= 20


def test_trick_claim_needs_a_certain_winner():
    """R9: when both followers can beat, the second may or may not beat the first: no bound."""
    pos = Position.parse("C7S2/C68/C59 0 0 4,3,3 C234S3456789M123456789T123456789 -")
    pos.push(P("C7"))
    assert trick_claim(pos) == (0, -1)  # seat 1 holds C8, seat 2 C9
    assert value_bounds(pos)[0] < 2
    pos = Position.parse("C9S2/C78/C56 0 0 4,3,3 C234S3456789M123456789T123456789 -")
    pos.push(P("C9"))
    t, seat = trick_claim(pos)
    assert seat == 0 and t == 4 + 1 + 1  # fu 4, the trick's card, S2 Old (S3-S9 face up)
    assert value_bounds(pos)[0] == 2 and Solver().solve(pos).value == oracle_value(pos) == 2


def test_trick_claim_when_only_one_seat_can_beat():
    """R9: when only one seat still to play can beat a single, it must, so it wins the trick with
    the card it chooses; the bound is its best sure claim after that (R14)."""
    hands = [parse_cards("C7S9"), parse_cards("C5M2"), parse_cards("S3T4")]
    up = format_cards(ALL_CARDS & ~(hands[0] | hands[1] | hands[2]))
    pos = Position.parse(f"C7S9/C5M2/S3T4 1 0 5,3,2 {up} -")
    pos.push(P("C5"))
    assert trick_claim(pos) == (7, 0)  # fu 5 + C7, and S9 (always Old)
    assert value_bounds(pos)[0] == 4 and oracle_value(pos) == Solver().solve(pos).value == 4
    assert reach(pos)[1] == 3 + 1  # seat 1's C5 will be beaten: only M2 can still count
    # the first to follow is the only one who can beat: it must, and the last cannot beat its card
    pos = Position.parse(f"C5M2/C7S9/S3T4 0 1 3,5,2 {up} -")
    pos.push(P("C5"))
    assert pos.to_move == 1 and trick_claim(pos) == (7, 1)  # seat 1 must beat with C7; seat 2 has no C
    assert value_bounds(pos)[0] == 4 and oracle_value(pos) == 4


def test_the_last_trick_is_valued_exactly():
    """R9, R14, R15: with one card a seat left at a lead, and with two left inside a trick led
    with a single, value_bounds gives the exact value (the claim or the forced last trick)."""
    checked = 0
    for line, want in mix():
        pos = Position.parse(line)
        n = pos.cards_per_hand()
        if pos.outcome is None and ((n == 1 and not pos.trick) or (n == 2 and pos.trick)):
            assert value_bounds(pos) == (want, want), line
            checked += 1
    assert checked >= 100


def test_cashing_unbeatable_leads_drains_the_other_side():
    """R9, R10: a leader who cashes plays nobody can beat takes as many cards from each other
    hand, so the other side reaches less; here the caller's C9 and S9 leave both non-callers
    one card short of six: the deal can at worst be void."""
    hands = [parse_cards("C9S9M2"), parse_cards("M5T78"), parse_cards("C2S2M3")]
    up = format_cards(ALL_CARDS & ~(hands[0] | hands[1] | hands[2]))
    pos = Position.parse(f"C9S9M2/M5T78/C2S2M3 0 0 1,4,4 {up} -")
    assert reach(pos) == [4, 7, 7]  # without the drain a non-caller could still make 7
    assert value_bounds(pos) == (0, 0) and oracle_value(pos) == 0


@pytest.mark.slow
def test_caller_discards_search_only_the_lowest_of_a_class():
    """The caller's discards keep the higher card of two with only face-up cards between them,
    and the value stays that of the unreduced search."""
    pos = Position.parse("C24M9/C6S2T1/C5S3T2 1 0 3,3,3 C13789S456789M2345678T3456789 -")
    pos.push(P("S2"))
    pos.push(P("S3"))
    assert pos.to_move == pos.caller == 0 and all(m.kind == DISCARD for m in pos.legal_moves())
    kept = {str(m) for m in reduced_moves(pos)}
    assert kept == {"xC2", "xM9"}, kept  # xC4 dropped: C2 and C4 have only C3 (face up) between
    assert Solver().solve(pos).value == Solver(reduce=False).solve(pos).value == oracle_value(pos)
    checked = 0
    for i in range(400):
        p = random_endgame(90_000 + i, 4 + i % 3, 1 + i % 2)
        if p.outcome is None and p.to_move == p.caller and next(p.legal_moves()).kind == DISCARD:
            if len(reduced_moves(p)) < len(list(p.legal_moves())):
                checked += 1
                assert Solver().solve(p).value == Solver(reduce=False).solve(p).value, str(p)
    assert checked >= 10


# ---------------------------------------------------------------- drivers


@pytest.mark.slow
def test_drivers_agree():
    """MTD(f)-style and bisecting drivers, fresh and shared, give one value; on the positions
    with a reference value, it is the reference's."""
    cases = [(str(p), None) for p in endgame_mix(160, (2, 3, 4, 5), seed0=100_000)]
    cases += [(str(p), None) for p in endgame_mix(6, (6,), seed0=110_000)]
    cases += list(mix()[1::20]) + list(mix5()[::2]) + list(multi_lead()[::2])
    mtdf, bisect = Solver(driver="mtdf"), Solver(driver="bisect")
    bad = []
    for line, want in cases:
        pos = Position.parse(line)
        a = Solver(driver="mtdf").solve(pos).value
        b = Solver(driver="bisect").solve(pos).value
        c = mtdf.solve(pos).value
        d = bisect.solve(pos).value
        check_value(a, line)
        if not a == b == c == d or (want is not None and a != want):
            bad.append(f"{line!r}: mtdf {a}, bisect {b}, shared mtdf {c}, shared bisect {d}, reference {want}")
    assert len(cases) >= 300
    assert not bad, "\n".join(bad)


def test_drivers_agree_on_hand_made_positions():
    for _, line, value in HAND_MADE:
        pos = Position.parse(line)
        assert Solver(driver="mtdf").solve(pos).value == value, line
        assert Solver(driver="bisect").solve(pos, all_moves=True).value == value, line


# ---------------------------------------------------------------- value range


def test_values_are_even_and_in_range():
    for line, v in mix() + mix5() + multi_lead():
        check_value(v, line)
    for line, v in limit_positions():
        check_value(v, line)
    for _, line, v in HAND_MADE:
        check_value(v, line)


def _loose_roots(count: int) -> list[Position]:
    """Seeded 6-card endgames whose value lies strictly inside the root's bounds, so that both
    zero-window tests around it expand the root and store its entry."""
    out = []
    for seed in range(1000):
        pos = random_endgame(seed, 6)
        lo, hi = value_bounds(pos)
        if lo < Solver().solve(pos).value < hi:  # type: ignore[operator]
            out.append(pos)
            if len(out) == count:
                break
    return out


@pytest.mark.slow
@pytest.mark.parametrize("pos", _loose_roots(6), ids=str)
def test_table_keeps_a_move_only_when_the_side_to_move_did_not_fail_low(
    pos: Position, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a zero-window test in which every move of the side to move failed, the root's entry
    has no move (a refuted move would mislead later ordering); after one it passed, the entry's
    move is legal and keeps the value. The caller's and the coalition's look-aheads are switched
    off here: where one decides a test, no move is searched and its stored cut has none
    (``docs/search.md``)."""
    monkeypatch.setattr(S, "CALLER_AHEAD", False)
    monkeypatch.setattr(S, "COALITION_AHEAD", False)
    s = Solver()
    v = s.solve(pos).value
    assert v is not None
    maximizing = pos.to_move == pos.caller
    fail, keep = ((v, v + 1), (v - 1, v)) if maximizing else ((v - 1, v), (v, v + 1))
    for window, has_move in ((fail, False), (keep, True)):
        s.tt.clear()
        g = s._ab(*window)
        entry = s.tt[tt_key(pos)]
        assert (entry[2] is not None) == has_move, (str(pos), window, g, entry)
        if has_move:
            assert entry[2] in set(pos.legal_moves())
            child = pos.copy()
            child.push(entry[2])
            w = Solver().solve(child).value
            assert w is not None and ((w >= v) if maximizing else (w <= v))
