"""Property tests over random deals and random playouts (hypothesis, derandomized: see conftest).

The deal is a hypothesis-drawn permutation of the 36 cards, the caller a drawn seat, and the
playout a seeded random choice among the legal moves. Along each playout the engine is checked
against independent bookkeeping and against small reference implementations of R5–R13 written
from RULES.md, not from the engine.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lukfu_solver.cards import ALL_CARDS, format_cards, iter_cards, old_cards, parse_cards
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play, beats, classify
from lukfu_solver.position import Position
from lukfu_solver.rules import beating_plays, lead_plays

# ---------------------------------------------------------------- strategies

PLAYOUTS = settings(max_examples=5 * settings.default.max_examples)
"""Playout tests are cheap: run five times the profile's examples."""

perms = st.permutations(range(36))
seats = st.integers(0, 2)
seeds = st.integers(0, 2**32 - 1)
claim_probs = st.sampled_from([0.0, 0.5, 1.0])


def hands_of(perm) -> list[int]:
    return [sum(1 << c for c in perm[12 * s : 12 * s + 12]) for s in range(3)]


# ---------------------------------------------------------------- reference rules (from RULES.md)


def sr(c: int) -> tuple[int, int]:
    return c // 9, c % 9 + 1


def mask_of(pairs) -> int:
    return sum(1 << (s * 9 + r - 1) for s, r in pairs)


def ref_old(hand: int, faceup: int) -> int:
    """R11–R13: 9s, C1, T1; or every higher card of the suit in the hand or face up."""
    known = {sr(c) for c in iter_cards(hand | faceup)}
    out = 0
    for c in iter_cards(hand):
        s, r = sr(c)
        if r == 9 or (r == 1 and s in (0, 3)) or all((s, h) in known for h in range(r + 1, 10)):
            out |= 1 << c
    return out


def ref_shapes(hand: int) -> set[Play]:
    """R5: every single, set (3 or 4 of a rank) and run (3+ consecutive in a suit, no wrap) in the hand."""
    held = {sr(c) for c in iter_cards(hand)}
    out = set()
    for s, r in held:
        out.add(Play(SINGLE, mask_of([(s, r)]), 1))
    for r in range(1, 10):
        suits = [s for s in range(4) if (s, r) in held]
        for k in (3, 4):
            for combo in combinations(suits, k):
                out.add(Play(SET, mask_of((s, r) for s in combo), k))
    for s in range(4):
        for lo in range(1, 8):
            for hi in range(lo + 2, 10):
                if all((s, r) in held for r in range(lo, hi + 1)):
                    out.add(Play(RUN, mask_of((s, r) for r in range(lo, hi + 1)), hi - lo + 1))
    return out


def ref_leads(hand: int, faceup: int, is_caller: bool, passed_master: bool) -> set[Play]:
    """R5–R7: the legal leads (claims aside)."""
    old = ref_old(hand, faceup)
    nonold = [sr(c) for c in iter_cards(hand & ~old)]
    top = max((s for s, _ in nonold), default=None)
    out = set()
    for p in ref_shapes(hand):
        if p.kind == SINGLE:
            s, r = sr(p.cards.bit_length() - 1)
            if not is_caller and nonold and (p.cards & old or s != top):
                continue  # R7
        elif passed_master and p.size >= 4:
            continue  # R6
        out.add(p)
    return out


def ref_beats(play: Play, best: Play, led: bool) -> bool:
    """R8, written from the rule text."""
    if play.kind != best.kind or play.kind not in (SINGLE, SET, RUN) or play.size != best.size:
        return False
    ps, pr = sr(play.cards.bit_length() - 1)  # highest card: the top of a run
    bs, br = sr(best.cards.bit_length() - 1)
    if play.kind == SINGLE:
        if led and (bs, br) in ((0, 1), (3, 1)):
            return False
        return ps == bs and pr > br
    if play.kind == SET:
        if led and br == 1:
            return pr == 9
        return pr > br
    return ps > bs or (ps == bs and pr > br)


def random_shape(rng: random.Random) -> Play:
    kind = rng.choice([SINGLE, SET, RUN])
    if kind == SINGLE:
        c = rng.randrange(36)
        return Play(SINGLE, 1 << c, 1)
    if kind == SET:
        r = rng.choice([1, 1, 9] + list(range(1, 10)))
        k = rng.choice([3, 4])
        return Play(SET, mask_of((s, r) for s in rng.sample(range(4), k)), k)
    s = rng.randrange(4)
    n = rng.choice([3, 3, 3, 4, 4, 5, 6, 9])
    lo = rng.randint(1, 10 - n)
    return Play(RUN, mask_of((s, r) for r in range(lo, lo + n)), n)


# ---------------------------------------------------------------- playouts


class Book:
    """Independent bookkeeping of a deal, updated from the moves alone."""

    def __init__(self) -> None:
        self.faceup = 0
        self.facedown = 0
        self.fu = [0, 0, 0]
        self.played = 0  # cards per seat in completed tricks
        self.trick: list[tuple[int, Play]] = []
        self.last_winner = 0

    def apply(self, seat: int, move: Play) -> None:
        if move.kind == CLAIM:
            return
        self.trick.append((seat, move))
        if len(self.trick) == 3:
            winner, best = [(s, p) for s, p in self.trick if p.kind != DISCARD][-1]
            self.fu[winner] += best.size
            self.played += self.trick[0][1].size
            for _, p in self.trick:
                if p.kind == DISCARD:
                    self.facedown |= p.cards
                else:
                    self.faceup |= p.cards
            self.trick = []
            self.last_winner = winner


def walk(hands, caller, seed, claim_prob):
    """Play a random deal; yield (position, legal moves, chosen move, book) before each move, then the end."""
    rng = random.Random(seed)
    pos = Position.start(hands, caller)
    book = Book()
    plays = 0
    while not pos.is_over:
        ms = list(pos.legal_moves())
        assert ms, f"no legal move in {pos}"
        long_leads = [p for p in ms if p.size >= 3] if not pos.trick else []
        if ms[0].kind == CLAIM and len(ms) > 1 and rng.random() >= claim_prob:
            m = rng.choice(ms[1:])
        elif ms[0].kind == CLAIM and claim_prob == 1.0:
            m = ms[0]
        elif long_leads and rng.random() < 0.4:  # sets and runs are rare among the leads: favour them
            m = rng.choice(long_leads)
        else:
            m = rng.choice(ms)
        yield pos, ms, m, book
        book.apply(pos.to_move, m)
        pos.push(m)
        plays += 1
        assert plays <= 36
    yield pos, [], None, book


def check_state(pos: Position, book: Book) -> None:
    hands = pos.hands
    parts = [hands[0], hands[1], hands[2], pos.faceup, pos.trick_cards, pos.facedown]
    assert sum(p.bit_count() for p in parts) == 36
    union = 0
    for p in parts:
        assert not union & p
        union |= p
    assert union == ALL_CARDS
    assert pos.faceup == book.faceup and pos.facedown == book.facedown
    # hand sizes: 12 minus what each seat put into completed tricks and the trick in progress
    n = 12 - book.played
    for s in range(3):
        in_trick = sum(p.size for seat, p in book.trick if seat == s)
        assert hands[s].bit_count() + in_trick == n
    assert pos.cards_per_hand() == n
    assert pos.fu == book.fu and sum(pos.fu) == book.played
    assert all(0 <= f <= book.played for f in pos.fu)
    assert [p for _, p in book.trick] == list(pos.trick)
    for s in range(3):
        assert pos.old_cards(s) == ref_old(hands[s], pos.faceup | pos.trick_faceup)


def check_outcome(pos: Position, book: Book, caller: int, claim_total: int | None) -> None:
    o = pos.outcome
    assert o is not None
    assert sum(o.points) == 0
    if o.how == "void":
        assert claim_total is None and all(f < 6 for f in book.fu) and o.points == (0, 0, 0) and o.winner is None
        return
    t = o.total
    assert t >= 6
    if o.how == "claim":
        assert t == claim_total
    else:
        assert claim_total is None and not any(pos.hands)
        at_six = [s for s in range(3) if book.fu[s] >= 6]
        assert o.winner in at_six
        if len(at_six) == 2:
            assert o.winner == book.last_winner
        assert t == book.fu[o.winner]
    w, p = o.winner, t - 5
    if w == caller:
        expected = [-p, -p, -p]
        expected[caller] = 2 * p
    else:
        expected = [0, 0, 0]
        expected[w], expected[caller] = 2 * p, -2 * p
    assert list(o.points) == expected


# ---------------------------------------------------------------- tests


@pytest.mark.slow
@PLAYOUTS
@given(perms, seats, seeds, claim_probs)
def test_playout_invariants(perm, caller, seed, claim_prob):
    """R1–R15 along a random deal: conservation, sizes, fu, Old, keys and text round trips."""
    hands = hands_of(perm)
    claim_total = None
    for pos, ms, m, book in walk(hands, caller, seed, claim_prob):
        check_state(pos, book)
        if m is None:
            break
        line = str(pos)
        again = Position.parse(line)
        assert str(again) == line
        assert again.key == pos.key
        assert len(set(ms)) == len(ms)
        for mv in ms:
            assert pos.is_legal(mv), f"{mv} generated but not legal in {line}"
        if m.kind == CLAIM:
            claim_total = pos.fu[pos.to_move] + pos.old_cards(pos.to_move).bit_count()
    check_outcome(pos, book, caller, claim_total)
    assert list(pos.legal_moves()) == []
    if pos.outcome.how != "claim":  # the hands ran out: the final position is a position line too
        again = Position.parse(str(pos))
        assert (again.key, again.outcome) == (pos.key, pos.outcome)
    twin = pos.copy()
    assert (str(twin), twin.key, twin.outcome) == (str(pos), pos.key, pos.outcome)


@pytest.mark.slow
@PLAYOUTS
@given(perms, seats, seeds, claim_probs)
def test_push_pop_restores_string_and_key(perm, caller, seed, claim_prob):
    hands = hands_of(perm)
    rng = random.Random(seed ^ 0x5A5A)
    start = Position.start(hands, caller)
    start_line, start_key = str(start), start.key
    trail = []
    for pos, ms, m, _ in walk(hands, caller, seed, claim_prob):
        if m is None:
            break
        before_line, before_key, before_over = str(pos), pos.key, pos.is_over
        for mv in rng.sample(ms, min(4, len(ms))) + [m]:
            pos.push(mv)
            assert pos.key != before_key  # every move changes the position, a claim included
            if not pos.is_over or pos.outcome.how == "end":
                assert Position.parse(str(pos)).key == pos.key
            pos.pop()
            assert (str(pos), pos.key, pos.is_over) == (before_line, before_key, before_over)
        trail.append(m)
    final_line, final_key, final_outcome = str(pos), pos.key, pos.outcome
    assert pos.is_over
    for _ in trail:
        pos.pop()
    assert (str(pos), pos.key, pos.is_over) == (start_line, start_key, False)
    assert pos.fu == [0, 0, 0] and pos.faceup == 0 and pos.trick == ()
    for mv in trail:
        pos.push_checked(mv)
    assert (str(pos), pos.key, pos.outcome) == (final_line, final_key, final_outcome)


@pytest.mark.slow
@PLAYOUTS
@given(perms, seats, seeds)
def test_is_legal_agrees_with_legal_moves(perm, caller, seed):
    """is_legal(c) == (c in legal_moves()) for legal and illegal candidates at every step."""
    hands = hands_of(perm)
    rng = random.Random(seed ^ 0xC0FFEE)
    for pos, ms, m, _ in walk(hands, caller, seed, 0.3):
        if m is None:
            assert not pos.is_legal(CLAIM_PLAY)
            break
        legal = set(ms)
        s = pos.to_move
        hand = pos.hands[s]
        others = ALL_CARDS & ~hand
        cands = set(ref_shapes(hand))
        cands.add(CLAIM_PLAY)
        cards = list(iter_cards(hand))
        lead_size = pos.trick[0].size if pos.trick else rng.randint(1, 4)
        for size in {lead_size - 1, lead_size, lead_size + 1, 1}:
            if 1 <= size <= len(cards):
                for _ in range(4):
                    mask = sum(1 << c for c in rng.sample(cards, size))
                    cands.add(Play(DISCARD, mask, size))
                    k = classify(mask)
                    cands.add(Play(k if k >= 0 else SINGLE, mask, size))  # a wrong kind when not a shape
        for p in list(cands)[:20]:  # the same shapes with a card not held
            if p.cards and others:
                extra = 1 << rng.choice(list(iter_cards(others)))
                cands.add(Play(p.kind, p.cards | extra, p.size + 1))
                cands.add(Play(p.kind, (p.cards & ~(p.cards & -p.cards)) | extra, p.size))
        if len(cards) >= 3:  # three cards labelled a run whatever they are
            cands.add(Play(RUN, sum(1 << c for c in cards[:3]), 3))
        cands.add(Play(DISCARD, 0, lead_size))  # a hidden discard
        for c in cands:
            assert pos.is_legal(c) == (c in legal), f"{c} ({c.kind}) in {pos}: is_legal={pos.is_legal(c)}"


@pytest.mark.slow
@PLAYOUTS
@given(perms, seats, seeds)
def test_moves_match_reference_rules(perm, caller, seed):
    """R5–R9 at every step of a random deal, against the reference rules written from RULES.md."""
    hands = hands_of(perm)
    for pos, ms, m, _ in walk(hands, caller, seed, 0.0):
        if m is None:
            break
        s = pos.to_move
        hand = pos.hands[s]
        assert len(ms) == len(set(ms))
        if not pos.trick:  # R5-R7 leads
            want = ref_leads(hand, pos.faceup, s == caller, s == 0 and caller != 0)
            assert {p for p in ms if p.kind != CLAIM} == want, str(pos)
            continue
        # R8-R9 following: beat the current best play if able, else discard the lead's size
        best_i = max(i for i, p in enumerate(pos.trick) if p.kind != DISCARD)
        best, led = pos.trick[best_i], best_i == 0
        assert pos.best == best
        beating = {p for p in ref_shapes(hand) if ref_beats(p, best, led)}
        if beating:
            assert set(ms) == beating, str(pos)
        else:
            k = pos.trick[0].size
            assert all(p.kind == DISCARD and p.size == k for p in ms)
            assert len(ms) == comb(hand.bit_count(), k)


@given(st.integers(0, ALL_CARDS), seeds, st.booleans())
def test_beating_plays_match_reference(hand_bits, seed, led):
    """R8: the generator of beating plays equals the reference predicate over every shape in the hand."""
    rng = random.Random(seed)
    best = random_shape(rng)
    hand = hand_bits & ~best.cards
    cards = list(iter_cards(hand))
    if len(cards) > 14:
        hand = sum(1 << c for c in rng.sample(cards, 14))
    shapes = ref_shapes(hand)
    want = {p for p in shapes if ref_beats(p, best, led)}
    got = list(beating_plays(hand, best, led))
    assert len(got) == len(set(got))
    assert set(got) == want
    for p in shapes:
        assert beats(p, best, led) == ref_beats(p, best, led), (str(p), str(best), led)
    # lead_plays for a caller (no R6/R7 limit) gives every shape
    assert set(lead_plays(hand, 0, True, False)) == shapes


@given(st.integers(0, ALL_CARDS), st.lists(st.integers(0, 3), min_size=8, max_size=8))
def test_old_cards_match_reference(hand, picks):
    faceup_pool = ALL_CARDS & ~hand
    faceup = 0
    for i, c in enumerate(iter_cards(faceup_pool)):
        if picks[i % 8] == 0:
            faceup |= 1 << c
    assert old_cards(hand, faceup) == ref_old(hand, faceup)


def mangle_list(mask: int, rng: random.Random, seps: str = " ,") -> str:
    """A non-canonical spelling of a card list: any order, lower case, separators."""
    if not mask:
        return "-"
    tokens = [format_cards(1 << c) for c in iter_cards(mask)]
    rng.shuffle(tokens)
    out = []
    for t in tokens:
        if rng.random() < 0.5:
            t = t.lower()
        out.append(t + (rng.choice(seps) if seps and rng.random() < 0.5 else ""))
    return "".join(out).strip(seps or None) or "-"


@given(st.integers(0, ALL_CARDS), seeds)
def test_card_lists_parse_to_canonical(mask, seed):
    rng = random.Random(seed)
    canonical = format_cards(mask)
    assert parse_cards(canonical) == mask
    assert format_cards(parse_cards(mangle_list(mask, rng))) == canonical
    assert format_cards(parse_cards(canonical.lower())) == canonical


@pytest.mark.slow
@PLAYOUTS
@given(perms, seats, seeds)
def test_positions_and_plays_parse_to_canonical(perm, caller, seed):
    hands = hands_of(perm)
    rng = random.Random(seed)
    for pos, ms, m, _ in walk(hands, caller, seed, 0.2):
        if m is None:
            break
        line = str(pos)
        f = line.split()
        hands_t = "/".join(mangle_list(h, rng, seps=",") for h in pos.hands)
        up_t = mangle_list(pos.faceup, rng, seps=",")
        trick_t = (
            ",".join(("x" if p.kind == DISCARD else "") + mangle_list(p.cards, rng, seps="") for p in pos.trick) or "-"
        )
        sloppy = " ".join([hands_t, f[1], f[2], f[3], up_t, trick_t])
        assert str(Position.parse(sloppy)) == line
        for mv in rng.sample(ms, min(5, len(ms))):
            text = str(mv)
            assert str(Play.parse(text)) == text and Play.parse(text) == mv
            if mv.kind != CLAIM:
                sloppy_mv = ("X" if mv.kind == DISCARD else "") + mangle_list(mv.cards, rng, seps=" ")
                assert str(Play.parse(sloppy_mv)) == text


@PLAYOUTS
@given(perms, seats, seeds, claim_probs)
def test_reach_bounds_every_winner_along_a_playout(perm, caller, seed, claim_prob):
    """search.reach (R9, R10, R14, R15): at every position of a random playout, the total the
    deal's eventual winner ends with is at most what reach allowed it there, and reach never
    grows as the deal goes on."""
    from lukfu_solver.search.reference import reach

    hands = hands_of(perm)
    trail = []
    for pos, _, m, _ in walk(hands, caller, seed, claim_prob):
        if m is None:
            break
        trail.append(reach(pos))
    o = pos.outcome
    for earlier, later in zip(trail, trail[1:], strict=False):
        assert all(b <= a for a, b in zip(earlier, later, strict=True)), (earlier, later)
    if o.winner is not None:
        assert all(r[o.winner] >= o.total for r in trail), (o, trail)
