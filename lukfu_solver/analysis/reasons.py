"""Why to call or pass, in card-play terms: the reasons ``advise`` and the call hint give.

What decides a freshly dealt hand (docs/glossary.md's words): the Old cards that take the lead
and count towards a claim (R11-R14), the suits in which the opponents hold higher cards (a
single led there loses the trick, R8-R9: every card you do not hold is in an opponent's hand),
the sets and runs that win a trick as one lead, sure or not (R5, R8), and the risk in points
over the sampled deals (how often calling loses, by how much). Each reason is a
:class:`Reason`: a string in English (``--json`` stays language-neutral) that can also be said
in the reader's language (:meth:`Reason.said`), without switching the process's language.

>>> from lukfu_solver.cards import parse_cards
>>> from lukfu_solver.policy.calling import hand_facts
>>> facts = hand_facts(parse_cards("C19S9M9T19C2S2M2T2S3T3"))
>>> [str(r) for r in fact_reasons(facts, 0)][:2]  # doctest: +NORMALIZE_WHITESPACE
['6 Old cards (C19S9M9T19): you can claim the deal at your first lead (six needed)',
 'the opponents hold higher cards in Coins (C2), Strings (S23), Myriads (M2), Tens (T23): led
 alone, those cards lose the trick']
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import ALL_CARDS, SUIT_MASK, CardSet, format_cards
from ..hidden.calls import CallValuation
from ..i18n import SUIT_NAMES, language, number, translations
from ..plays import Play, classify
from ..policy.calling import HandFacts
from ..rules import beating_plays

CLAIM_AT = 6
"""Fu won plus Old cards held that allow a claim at the lead (R14)."""


class Words:
    """One language's gettext calls on a given catalogue, so a reason can be said in English (for
    ``--json``) and in the reader's language (on screen) without changing the process's language.
    The method names are gettext's, so the catalogue extraction finds the messages."""

    def __init__(self, catalogue: gettext.NullTranslations, code: str = "en") -> None:
        self.catalogue = catalogue
        self.code = code

    def number(self, x: float, decimals: int = 0, sign: bool = False) -> str:
        """``x`` as this language writes it (``-0,62`` in Russian; ``i18n.number``)."""
        return number(x, decimals, sign, self.code)

    def _(self, message: str) -> str:
        """``message`` in this language."""
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message for ``n`` in this language."""
        return self.catalogue.ngettext(singular, plural, n)

    def suits(self, parts: Sequence[tuple[int, CardSet]]) -> str:
        """``Coins (C23), Strings (S5)``: suit names in this language, cards in the notation."""
        return ", ".join(f"{self._(SUIT_NAMES[s])} ({format_cards(c)})" for s, c in parts)


ENGLISH = Words(gettext.NullTranslations())
"""The source language, in which every reason is kept as a string."""


def _old(w: Words, old: CardSet, seat: int) -> str:
    k = old.bit_count()
    if not k:
        return w._("no Old card: nothing is sure to take the lead, and all six fu must come from tricks won")
    cards = w.ngettext("{n} Old card", "{n} Old cards", k).format(n=k)
    if k >= CLAIM_AT:
        if seat == 0:
            how = w._("you can claim the deal at your first lead (six needed)")
        else:
            how = w._("you can claim the deal as soon as you win a trick and lead (six needed)")
    else:
        how = w.ngettext(
            "sure of {k} of the six needed to claim; {n} more fu must come from tricks won",
            "sure of {k} of the six needed to claim; {n} more fu must come from tricks won",
            CLAIM_AT - k,
        ).format(k=k, n=CLAIM_AT - k)
    return f"{cards} ({format_cards(old)}): {how}"


def _tops(w: Words, parts: tuple[tuple[int, CardSet], ...]) -> str:
    return w._("the opponents hold higher cards in {suits}: led alone, those cards lose the trick").format(
        suits=w.suits(parts)
    )


def _shapes(w: Words, sure: tuple[CardSet, ...], unsure: tuple[CardSet, ...]) -> str:
    out = []
    if sure:
        cards = ", ".join(format_cards(c) for c in sure)
        out.append(
            w.ngettext(
                "{cards} wins its trick when led: nobody can hold a play that beats it",
                "{cards} win their tricks when led: nobody can hold a play that beats them",
                len(sure),
            ).format(cards=cards)
        )
    if unsure:
        cards = ", ".join(format_cards(c) for c in unsure)
        out.append(
            w.ngettext(
                "{cards} can be beaten by a higher set or run in an opponent's hand",
                "{cards} can be beaten by higher sets or runs in an opponent's hand",
                len(unsure),
            ).format(cards=cards)
        )
    return w._("sets and runs: {what}").format(what="; ".join(out))


def _risk(w: Words, losses: int, n: int, average: float, worst: float) -> str:
    if not losses:
        return w.ngettext(
            "risk: calling lost in none of the {n} sampled deal",
            "risk: calling lost in none of the {n} sampled deals",
            n,
        ).format(n=n)
    return w.ngettext(
        "risk: calling loses in {k} of {n} sampled deal, by {average} points on average (at worst {worst})",
        "risk: calling loses in {k} of {n} sampled deals, by {average} points on average (at worst {worst})",
        n,
    ).format(k=losses, n=n, average=w.number(average, 1), worst=w.number(worst))


def _lead(w: Words, seat: int) -> str:
    if seat == 0:
        return w._("you are the Master: you lead the first trick")
    return w._("the Master leads the first trick: you must win a trick before you lead")


def _short(w: Words, rec: str, play: float, pass_: float, old: CardSet, seat: int) -> str:
    points = {k: w.number(v, 2, sign=True) for k, v in (("play", play), ("pass_", pass_))}
    if rec == "play":
        why = w._("play: calling is worth {play} points on average, passing {pass_}").format(**points)
    else:
        why = w._("pass: passing is worth {pass_} points on average, calling {play}").format(**points)
    k = old.bit_count()
    if k >= CLAIM_AT:
        hand = w._("{k} Old cards: enough to claim as soon as you lead").format(k=k)
    elif k:
        hand = w.ngettext(
            "{k} Old card: {n} more fu must come from tricks won",
            "{k} Old cards: {n} more fu must come from tricks won",
            k,
        ).format(k=k, n=CLAIM_AT - k)
    else:
        hand = w._("no Old card: all six fu must come from tricks won")
    return f"{why}; {hand}"


RENDER: dict[str, Callable[..., str]] = {
    "old": _old,
    "tops": _tops,
    "shapes": _shapes,
    "risk": _risk,
    "lead": _lead,
    "short": _short,
}
"""Each kind of reason and the function that says it in a language."""


class Reason(str):
    """One reason: the string is its English text; :meth:`said` says it in the language in use.
    ``kind`` names its words (:data:`RENDER`), ``args`` are its facts (cards, counts, points)."""

    kind: str
    args: tuple[Any, ...]

    def __new__(cls, kind: str, *args: Any) -> Reason:
        self = super().__new__(cls, RENDER[kind](ENGLISH, *args))
        self.kind = kind
        self.args = args
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Reason, (self.kind, *self.args))

    def said(self) -> str:
        """The reason in the language in use."""
        return RENDER[self.kind](Words(translations(language()), language()), *self.args)


def said(reason: str) -> str:
    """A reason in the language in use (a plain string is shown as it is)."""
    return reason.said() if isinstance(reason, Reason) else reason


def loose_suits(facts: HandFacts) -> tuple[tuple[int, CardSet], ...]:
    """``(suit, cards)`` for every suit in which the hand holds cards that are not Old: an opponent
    holds a higher card of that suit (all 36 cards are dealt), so such a card led alone is beaten."""
    return tuple((s, loose) for s in range(4) if (loose := facts.hand & SUIT_MASK[s] & ~facts.old))


def sure_shape(shape: CardSet, hand: CardSet) -> bool:
    """True when no set or run the opponents could hold beats ``shape`` led (R8): none can be made
    from the cards outside ``hand``, even with one opponent holding them all."""
    play = Play(classify(shape), shape, shape.bit_count())
    return next(iter(beating_plays(ALL_CARDS & ~hand, play, True)), None) is None


def fact_reasons(facts: HandFacts, seat: int) -> list[Reason]:
    """The reasons that follow from the hand alone: Old cards, suits topped by the opponents,
    sets and runs, and who leads first."""
    out = [Reason("old", facts.old, seat)]
    loose = loose_suits(facts)
    if loose:
        out.append(Reason("tops", loose))
    shapes = facts.sets + facts.runs
    if shapes:
        sure = tuple(m for m in shapes if sure_shape(m, facts.hand))
        out.append(Reason("shapes", sure, tuple(m for m in shapes if m not in sure)))
    out.append(Reason("lead", seat))
    return out


def risk_reason(plays: Sequence[float]) -> Reason | None:
    """How often calling lost over the sampled deals (the caller's points ``plays``) and by how
    much; None without a sample."""
    if not plays:
        return None
    losses = [-p for p in plays if p < 0]
    average = sum(losses) / len(losses) if losses else 0.0
    return Reason("risk", len(losses), len(plays), average, max(losses, default=0.0))


def card_reasons(facts: HandFacts, seat: int, rec: str, valuation: CallValuation) -> list[str]:
    """What decides the hand, in card-play terms: the Old cards that take the lead, the suits in
    which the opponents hold higher cards, the sets and runs that win a trick (sure or not), the
    risk in points over the samples (how often calling loses, by how much) and who leads first.
    ``rec`` (the recommendation) is not restated: the reasons are the facts behind it."""
    out: list[str] = list(fact_reasons(facts, seat))
    risk = risk_reason([r.play for r in valuation.samples])
    if risk is not None:
        out.insert(-1, risk)
    return out


def _reason(facts: HandFacts, seat: int, rec: str, play: float, pass_: float, se: float) -> str:
    """The one-line reason: the choice with both values, then the Old cards and what they make
    sure (``se``, the play estimate's standard error, is shown beside the numbers, not here)."""
    return Reason("short", rec, play, pass_, facts.old, seat)
