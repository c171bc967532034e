"""The one action space of the research environments: 40 actions, a play made card by card.

============  ======================================================================
action        meaning
============  ======================================================================
0–35          CARD *c*: add card *c* (``cards.py``'s index, suit × 9 + rank − 1:
              C1 = 0 … C9 = 8, S1 = 9 …, T9 = 35) to the play being built
36            FINISH: make the play the chosen cards form
37            CLAIM (R14)
38            CALL_PLAY, 39 CALL_PASS (R3)
============  ======================================================================

A play of *k* cards (a single, a set, a run, a face-down discard) is *k* CARD actions in
ascending card order. The mask allows only a card above those chosen that still extends to a
legal play, so every sequence ends in one (nothing illegal is reachable) and every legal play
has exactly one sequence (every one is reachable). When the chosen cards form a legal play that
no further card extends, the last card makes it at once; when a further card could still extend
it (the single C3 beside the run C345), FINISH is offered beside that card. The card set alone
says which play is meant: a seat that follows either can beat, and must (R9), or discards, and a
leader never discards.

>>> from lukfu_solver.cards import parse_cards
>>> from lukfu_solver.position import Position
>>> pos = Position.parse("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 0 0,0,0 - -")
>>> d = Decision(pos)
>>> [action_name(a) for a in d.actions_for(Play.parse("T123"))], [action_name(a) for a in d.actions_for(Play.parse("M5"))]
(['T1', 'T2', 'T3'], ['M5', 'finish'])
>>> [action_name(a) for a in legal_actions(d, parse_cards("M5"))]
['M6', 'finish']
"""

from __future__ import annotations

from ..cards import CardSet, card_name
from ..errors import NotationError
from ..i18n import _
from ..plays import CLAIM, CLAIM_PLAY, DISCARD, Play
from ..position import Position

NUM_CARD_ACTIONS = 36
FINISH = 36
CLAIM_ACTION = 37
CALL_PLAY = 38
CALL_PASS = 39
NUM_ACTIONS = 40
"""The size of the action space, the same in PettingZoo, Gymnasium and OpenSpiel."""
CALL_ACTIONS = {"play": CALL_PLAY, "pass": CALL_PASS}
"""The call (R3) of each calling action's word."""


def action_name(action: int) -> str:
    """The text of an action: a card name (``S7``), ``finish``, ``claim``, ``play`` or ``pass``."""
    if 0 <= action < NUM_CARD_ACTIONS:
        return card_name(action)
    names = {FINISH: "finish", CLAIM_ACTION: "claim", CALL_PLAY: "play", CALL_PASS: "pass"}
    if action not in names:
        raise NotationError(
            "action", _("an action is 0-{last}, got {action}").format(last=NUM_ACTIONS - 1, action=action)
        )
    return names[action]


def _drop_highest(mask: CardSet, n: int) -> CardSet:
    """``mask`` without its ``n`` highest cards."""
    for _i in range(n):
        if not mask:
            break
        mask &= ~(1 << (mask.bit_length() - 1))
    return mask


class Decision:
    """The legal plays of one decision of the play phase, in the form the card-by-card scheme reads.

    Built from the position's one move generator (:meth:`Position.legal_moves`): ``claim`` says
    whether R14 allows a claim; a follower who cannot beat has ``discard`` set to the lead's size
    (every set of that many cards is legal, so they are never listed); otherwise ``plays`` maps
    each legal face-up play's card mask to the play.
    """

    __slots__ = ("hand", "claim", "discard", "plays")

    def __init__(self, pos: Position) -> None:
        self.hand = pos.hands[pos.to_move]
        self.claim = False
        self.discard = 0
        self.plays: dict[CardSet, Play] = {}
        for move in pos.legal_moves():
            if move.kind == CLAIM:
                self.claim = True
            elif move.kind == DISCARD:  # no beating play: every discard of the lead's size is legal
                self.discard = move.size
                break
            else:
                self.plays[move.cards] = move

    def next_cards(self, chosen: CardSet) -> CardSet:
        """The cards that may be chosen after ``chosen``: above all of them, and extending them
        towards a legal play."""
        top = chosen.bit_length()
        if self.discard:
            need = self.discard - chosen.bit_count()
            if need <= 0:
                return 0
            above = self.hand >> top << top
            return _drop_highest(above, need - 1)  # room must remain for the cards still needed
        below = (1 << top) - 1
        out = 0
        for mask in self.plays:
            if mask & below == chosen and mask != chosen:
                rest = mask ^ chosen
                out |= rest & -rest
        return out

    def formed(self, chosen: CardSet) -> Play | None:
        """The legal play the cards ``chosen`` form, or None."""
        if self.discard:
            return Play(DISCARD, chosen, self.discard) if chosen.bit_count() == self.discard else None
        return self.plays.get(chosen)

    def actions_for(self, play: Play) -> list[int]:
        """The action sequence that makes ``play``; an illegal play raises NotationError("play", …)."""
        if play.kind == CLAIM:
            if play == CLAIM_PLAY and self.claim:
                return [CLAIM_ACTION]
        elif play.cards and self.formed(play.cards) == play:
            seq = [c for c in range(NUM_CARD_ACTIONS) if play.cards >> c & 1]
            if self.next_cards(play.cards):
                seq.append(FINISH)
            return seq
        raise NotationError("play", _("{play} is not legal here").format(play=play))

    def plays_list(self) -> list[Play]:
        """Every legal play of the decision (discards listed: up to 924 of them)."""
        from ..rules import discard_plays

        out = [CLAIM_PLAY] if self.claim else []
        if self.discard:
            return out + list(discard_plays(self.hand, self.discard))
        return out + list(self.plays.values())


def legal_actions(decision: Decision, chosen: CardSet) -> list[int]:
    """The legal actions, ascending, at ``decision`` with the cards ``chosen`` so far."""
    nxt = decision.next_cards(chosen)
    out = [c for c in range(NUM_CARD_ACTIONS) if nxt >> c & 1]
    if chosen and nxt and decision.formed(chosen) is not None:
        out.append(FINISH)
    if not chosen and decision.claim:
        out.append(CLAIM_ACTION)
    return out
