"""Rich renderings of positions, seat views and replays (no rules here: the library computes
every fact and its JSON data, this module only lays them out)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.cards import SUITS, CardSet, format_cards, suit_bits
from lukfu_solver.history import Trick
from lukfu_solver.i18n import COUNTED, NP_, _, counted, ngettext, number, pgettext, suit_name, term
from lukfu_solver.plays import CLAIM, DISCARD, Play
from lukfu_solver.position import Position
from lukfu_solver.rules import Outcome, worth

OLD_STYLE = "bold yellow"
OLD_MARK = "*"
CARD_BACK = "▒"
"""One face-down card (a discard seen from another seat): one mark a card, so two read as two."""
LEGEND = Text.assemble(("9", OLD_STYLE), (OLD_MARK, OLD_STYLE), " an Old card: no card the others hold can beat it")


# ---------------------------------------------------------------- words


class Hanging:
    """A paragraph wrapped by words at the console's width (Rich measures every character's
    cells, Devanagari included): its first line indented by ``indent`` spaces, the lines after it
    by ``indent + hang``, so a long narration line never breaks inside a word nor runs back to
    column 0."""

    def __init__(self, text: str | Text, indent: int = 0, hang: int = 0, style: str = "") -> None:
        self.text = text if isinstance(text, Text) else Text(text, style=style)
        self.indent = indent
        self.hang = hang

    def __rich_console__(self, console: Any, options: Any) -> Any:
        width = max(12, options.max_width - self.indent - self.hang)
        for i, line in enumerate(self.text.wrap(console, width)):
            line.rstrip()
            pad = Text(" " * (self.indent + (self.hang if i else 0)), end="")
            yield Text.assemble(pad, line, no_wrap=True, end="\n")



def plural(n: int, word: str) -> str:
    """``n`` and ``word``, plural when ``n`` is not one: ``1 Old card``, ``3 Old cards``, ``2 fu``
    (fu has no plural).

    >>> plural(1, "Old card"), plural(3, "Old card"), plural(0, "point"), plural(2, "fu")
    ('1 Old card', '3 Old cards', '0 points', '2 fu')
    """
    if word in COUNTED:
        return counted(n, word)
    if n == 1 or word == "fu":
        return f"{n} {word}"
    return f"{n} {word}s"


STRENGTH_WORDS: dict[str, str] = {
    "easy": NP_("strength", "easy"),
    "medium": NP_("strength", "medium"),
    "strong": NP_("strength", "strong"),
}
"""The engine players' plain strengths (``lukfu play --opponents``), as a record names them."""


def player_name(name: str) -> str:
    """A player's name as shown, from the name a record keeps (language-neutral): the person at
    ``lukfu play`` (``you``) and a strength (``medium A``) in the language in use; an engine spec
    (``pimc:2``) as it is.

    >>> from lukfu_solver.i18n import using_language
    >>> with using_language("ru"):
    ...     player_name("you"), player_name("medium A"), player_name("pimc:2 B")
    ('вы', 'средний A', 'pimc:2 B')
    """
    if name == "you":
        return _("you")
    word, sep, letter = name.partition(" ")
    if word in STRENGTH_WORDS and (not sep or letter in ("A", "B")):
        return pgettext("strength", STRENGTH_WORDS[word]) + sep + letter
    return name


def seat_label(seat: int) -> str:
    """``seat 0 (Master)`` for seat 0, ``seat N`` otherwise."""
    return _("seat 0 (Master)") if seat == 0 else _("seat {seat}").format(seat=seat)


def role(seat: int, caller: int) -> str:
    """The seat's role words: Master and/or caller."""
    words = []
    if seat == 0:
        words.append(term("Master"))
    if seat == caller:
        words.append(term("caller"))
    return ", ".join(words)


def caller_text(caller: int) -> str:
    """Who called, and what the Master's pass implies (R6)."""
    if caller == 0:
        return _("seat 0, the Master")
    return _("seat {seat} (the Master passed, so R6 limits seat 0's leads)").format(seat=caller)


def signed(x: float, decimals: int = 0) -> str:
    """A number of points with its sign: whole (``+4``, ``-2``, ``0``) or with ``decimals``
    (``signed(1.25, 2)`` is ``+1.25``, zero ``+0.00``), for net and expected points alike.

    >>> signed(4), signed(-2), signed(0), signed(1.25, 2), signed(0.0, 2), signed(-0.1234, 3)
    ('+4', '-2', '0', '+1.25', '+0.00', '-0.123')
    >>> signed(-0.0004, 3)
    '+0.000'
    """
    text = number(x, decimals, sign=True)  # never "-0.000"; "+1,25" in Russian and Spanish
    return text if decimals or text != "+0" else "0"


def worth_text(total: int, winner: int, caller: int) -> str:
    """What a win with ``total`` is worth and who pays it (R16–R17), so the net points that follow
    add up: ``worth 1 point from each of the other two`` (the caller wins) or ``worth 1 point,
    paid twice by the caller`` (a non-caller wins)."""
    n, paid_by, _net = worth(winner, total, caller)
    if paid_by == "others":
        words = ngettext("worth {n} point from each of the other two", "worth {n} points from each of the other two", n)
    else:
        words = ngettext("worth {n} point, paid twice by the caller", "worth {n} points, paid twice by the caller", n)
    return words.format(n=n)


def fu_list(fu: Sequence[int]) -> str:
    """Each seat's fu, seat 0 first, joined by dashes as a score is written (``4–1–0``): never by
    commas, which read as a decimal mark in Russian and Spanish (``2,1`` is two and a tenth).

    >>> fu_list((4, 1, 0))
    '4–1–0'
    """
    return "–".join(str(f) for f in fu)


def points_text(points: Sequence[int]) -> str:
    """``seat 0 -2, seat 1 +4, seat 2 -2``."""
    return ", ".join(_("seat {seat} {points}").format(seat=s, points=signed(p)) for s, p in enumerate(points))


def outcome_text(outcome: Outcome) -> str:
    """How the deal ended, in words: who won, T and how (R14–R16)."""
    if outcome.winner is None:
        return _("void: the hands ran out and nobody won six fu, so nobody scores")
    if outcome.how == "claim":
        return _("seat {seat} wins by claim with a total of {total}").format(seat=outcome.winner, total=outcome.total)
    return _("seat {seat} wins with {total} fu when the hands ran out").format(seat=outcome.winner, total=outcome.total)


def result_line(outcome: Outcome) -> str:
    """One line for scripts and humans: the outcome and the net points (R16–R17)."""
    return _("result: {outcome}; net points: {points}").format(
        outcome=outcome_text(outcome), points=points_text(outcome.points)
    )


# ---------------------------------------------------------------- cards


def suit_cell(hand: CardSet, old: CardSet, suit: int) -> Text:
    """The ranks a hand holds in one suit, Old ranks bold with an asterisk; ``·`` for none."""
    ranks = suit_bits(hand, suit)
    olds = suit_bits(old, suit)
    if not ranks:
        return Text("·", style="dim")
    text = Text()
    for r in range(9):
        if ranks >> r & 1:
            if text:
                text.append(" ")
            if olds >> r & 1:
                text.append(f"{r + 1}{OLD_MARK}", style=OLD_STYLE)
            else:
                text.append(str(r + 1))
    return text


def hidden_cell(count: int, compact: bool = False) -> Text:
    """``count`` card backs; ``compact``: at most two drawn, then their number (``▒ ×5``), so a
    narrow table's column never wraps."""
    if compact and count > 2:
        return Text(f"{CARD_BACK} ×{count}", style="dim")
    return Text(" ".join([CARD_BACK] * count) if count else "·", style="dim")


def play_text(play: Play) -> Text:
    """A play as shown: face-up cards as written, a hidden discard as card backs."""
    if play.hidden:
        return Text("x " + " ".join([CARD_BACK] * play.size), style="dim")
    if play.kind == DISCARD:
        return Text(str(play), style="dim")
    return Text(str(play))


def _suit_columns(table: Table) -> None:
    for s in range(4):
        table.add_column(suit_header(s))


def suit_header(suit: int) -> str:
    """A suit's column header, the same everywhere: its letter and its name (``C Coins``)."""
    return f"{SUITS[suit]} {suit_name(suit)}"


def legend_for(*old: CardSet) -> Text:
    """The Old-card legend when any of ``old`` holds a card, else nothing (an empty Text), so
    the legend shows only beside an Old card."""
    return legend() if any(old) else Text("", end="")


def legend() -> Text:
    """The Old-card legend (:data:`LEGEND`) in the language in use."""
    return Text.assemble(
        ("9", OLD_STYLE), (OLD_MARK, OLD_STYLE), _(" an Old card: no card the others hold can beat it")
    )


def hand_table(hand: CardSet, old: CardSet, label: str) -> Table:
    """One hand by suit under the title ``label`` (suit names as headers, Old cards marked)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=label, title_justify="left", title_style="bold")
    _suit_columns(table)
    table.add_row(*(suit_cell(hand, old, s) for s in range(4)))
    return table


# ---------------------------------------------------------------- positions


def trick_table(plays: Sequence[Play], leader: int, best_seat: int | None) -> Table:
    """The trick in progress: one row a play, leader first, the current best marked."""
    table = Table(box=box.SIMPLE, show_header=True, pad_edge=False)
    table.add_column(pgettext("column", "seat"))
    table.add_column(pgettext("column", "play"))
    table.add_column("")
    for i, play in enumerate(plays):
        seat = (leader + i) % 3
        notes = []
        if i == 0:
            notes.append(pgettext("trick", "lead"))
        elif play.kind == DISCARD:
            notes.append(pgettext("trick", "discard"))
        else:
            notes.append(pgettext("trick", "beats"))
        if seat == best_seat:
            notes.append(pgettext("trick", "best so far"))
        table.add_row(str(seat), play_text(play), ", ".join(notes))
    return table


def position_renderable(pos: Any) -> RenderableType:
    """A perfect-information position: hands by suit (Old marked), fu, roles, turn, trick."""
    over = pos.is_over
    hands = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    hands.add_column("", width=1)
    hands.add_column(pgettext("column", "seat"))
    _suit_columns(hands)
    hands.add_column(pgettext("column", "fu"), justify="right")
    hands.add_column(pgettext("column", "cards"), justify="right")
    for s in range(3):
        old = pos.old_cards(s)
        turn = "▶" if not over and s == pos.to_move else ""
        label = f"{s} {role(s, pos.caller)}".rstrip()
        cells = [suit_cell(pos.hands[s], old, suit) for suit in range(4)]
        hands.add_row(turn, label, *cells, str(pos.fu[s]), str(pos.hands[s].bit_count()))
    legend = legend_for(*(pos.old_cards(s) for s in range(3)))
    lines: list[RenderableType] = [hands, legend, Text(_("Caller: {caller}").format(caller=caller_text(pos.caller)))]
    if over:
        lines.append(Text(_("Deal over: {outcome}").format(outcome=outcome_text(pos.outcome)), style="bold"))
        lines.append(Text(_("Net points: {points}").format(points=points_text(pos.outcome.points))))
    else:
        turn = _to_move(pos.to_move, "", bool(pos.trick))
        if pos.can_claim():
            turn += _(" (may claim: fu + Old cards = {total}, six or more)").format(total=pos.claim_total())
        lines.append(Text(turn))
    lines.append(Text(_("Face up: {cards}").format(cards=format_cards(pos.faceup))))
    down = pos.facedown.bit_count()
    lines.append(
        Text(
            ngettext(
                "Face down in completed tricks: {n} card", "Face down in completed tricks: {n} cards", down
            ).format(n=down)
        )
    )
    if pos.trick:
        lines.append(Text(_("Trick in progress, led by seat {seat}:").format(seat=pos.leader)))
        lines.append(trick_table(pos.trick, pos.leader, pos.best_seat))
    elif not over:
        lines.append(Text(_("No trick in progress.")))
    return Group(*lines)


def _to_move(seat: int, you: str, following: bool) -> str:
    """``To move: seat 1 (you), to follow`` (``you`` is empty or the translated `` (you)``)."""
    if following:
        return _("To move: seat {seat}{you}, to follow").format(seat=seat, you=you)
    return _("To move: seat {seat}{you}, to lead").format(seat=seat, you=you)


# ---------------------------------------------------------------- trick histories


def trick_rows_table(tricks: Sequence[Trick], title: str | None = None) -> Table:
    """Tricks (:class:`~lukfu_solver.history.Trick`) as rows: number, leader, each seat's play,
    winner and fu won.

    One column a seat, so each seat's plays line up; the winning play (or the best so far, in a
    trick in progress) is bold, a hidden discard shows card backs.
    """
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title, title_justify="left")
    table.add_column(pgettext("column", "trick"), justify="right")
    table.add_column(pgettext("column", "leader"), justify="center")
    for s in range(3):
        table.add_column(_("seat {seat}").format(seat=s))
    table.add_column(pgettext("column", "winner"), justify="center")
    table.add_column(pgettext("column", "fu"), justify="right")
    for n, trick in enumerate(tricks, 1):
        cells: list[Text] = [Text("") for _ in range(3)]
        for i, p in enumerate(trick.plays):
            cell = play_text(p)
            if i == trick.best:
                cell.stylize("bold")
            cells[trick.seat(i)] = cell
        if not trick.complete:
            for i in range(len(trick.plays), 3):
                cells[trick.seat(i)] = Text("…", style="dim")
        table.add_row(
            str(n),
            str(trick.leader),
            *cells,
            "…" if trick.winner is None else str(trick.winner),
            str(trick.fu_won) if trick.complete else "",
        )
    return table


# ---------------------------------------------------------------- seat views


def view_renderable(view: Any, max_moves: int = 60) -> RenderableType:
    """One seat's view: its hand (Old marked), every seat's size, fu and hidden discards, the
    tricks so far, whose turn it is and, when it is the viewer's, its legal moves."""
    seat = view.seat
    calling = view.caller is None
    head = _("Seat {seat}'s view (the Master)") if seat == 0 else _("Seat {seat}'s view")
    head = head.format(seat=seat)
    lines: list[RenderableType] = [Text(head, style="bold")]

    hand = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    hand.add_column(pgettext("column", "hand"))
    _suit_columns(hand)
    old = view.old_cards()
    hand.add_row(_("seat {seat}").format(seat=seat), *(suit_cell(view.hand, old, s) for s in range(4)))
    lines += [hand, legend_for(old)]

    seats = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    seats.add_column("", width=1)
    seats.add_column(pgettext("column", "seat"))
    seats.add_column(pgettext("column", "cards"), justify="right")
    seats.add_column(pgettext("column", "fu"), justify="right")
    seats.add_column(pgettext("column", "face-down discards"))
    for s in range(3):
        turn = "▶" if s == view.to_move else ""
        label = f"{s} {role(s, view.caller if not calling else -1)}".rstrip()
        if s == seat:
            label += _(" (you)")
            down = Text(format_cards(view.own_discards) if view.own_discards else "·")
        else:
            down = hidden_cell(view.hidden_discards[s])
        seats.add_row(turn, label, str(view.hand_sizes[s]), str(view.fu[s]), down)
    lines.append(seats)

    if calling:
        lines.append(Text(_("Calling: calls so far: {calls}.").format(calls=calls_text(view.calls))))
        you = _(" (you)") if view.to_move == seat else ""
        lines.append(Text(_("To call: seat {seat}").format(seat=view.to_move) + you))
        return Group(*lines)

    lines.append(Text(_("Caller: {caller}").format(caller=caller_text(view.caller))))
    if view.tricks:
        lines.append(trick_rows_table(view.history.tricks, title=_("Tricks")))
    else:
        lines.append(Text(_("No trick played yet.")))
    outcome = view.outcome
    if outcome is not None:
        lines.append(
            Text(_("The hands have run out. Deal over: {outcome}").format(outcome=outcome_text(outcome)), style="bold")
        )
        lines.append(Text(_("Net points: {points}").format(points=points_text(outcome.points))))
        return Group(*lines)
    turn = _to_move(view.to_move, _(" (you)") if view.to_move == seat else "", bool(view.trick))
    if view.trick:
        turn += _("; best so far {play} by seat {seat}").format(play=view.best, seat=view.best_seat)
    lines.append(Text(turn))
    if view.to_move == seat:
        moves = [Text(str(m), no_wrap=True) for m in view.sorted_legal_moves()]
        shown = moves[:max_moves]
        if len(moves) > max_moves:
            more = _("… and {n} more (--json lists all)").format(n=len(moves) - max_moves)
            shown.append(Text(more, style="dim", no_wrap=True))
        lines.append(Text(_("Legal moves ({n}):").format(n=len(moves))))
        lines.append(Columns(shown, padding=(0, 2)))
    return Group(*lines)


def calls_text(calls: Sequence[str]) -> str:
    """``seat 0 pass, seat 1 play``, or ``none yet`` (the calls in the glossary's words)."""
    return ", ".join(_("seat {seat} {call}").format(seat=i, call=term(c)) for i, c in enumerate(calls)) or _("none yet")


# ---------------------------------------------------------------- records


def hands_table(hands: Sequence[CardSet], caller: int | None, faceup: CardSet = 0) -> Table:
    """Hands by seat and suit, Old cards marked (for each holder, given ``faceup``)."""
    from lukfu_solver.cards import old_cards

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "seat"))
    _suit_columns(table)
    for s, hand in enumerate(hands):
        old = old_cards(hand, faceup)
        label = f"{s} {role(s, caller if caller is not None else -1)}".rstrip()
        table.add_row(label, *(suit_cell(hand, old, suit) for suit in range(4)))
    return table


def replay_renderable(record: Any) -> RenderableType:
    """A validated record: the deal, the calls, the tricks one by one, the claim and the result."""
    from lukfu_solver.cards import old_cards

    caller = record.caller
    facts = []
    if record.seed is not None:
        facts.append(_("seed {seed}").format(seed=record.seed))
    if record.players is not None:
        facts.append(_("players by seat: ") + ", ".join(f"{s} {player_name(p)}" for s, p in enumerate(record.players)))
    if record.passed_out:
        n = len(record.passed_out)
        facts.append(ngettext("{n} deal passed out before it", "{n} deals passed out before it", n).format(n=n))
    head = _("Deal ({facts})").format(facts="; ".join(facts)) if facts else _("Deal")
    lines: list[RenderableType] = [Text(head, style="bold")]
    lines.append(hands_table(record.hands, caller))
    lines.append(legend_for(*(old_cards(h, 0) for h in record.hands)))
    lines.append(Text(_("Calls: {calls}").format(calls=calls_text(record.calls))))
    if caller is None:
        lines.append(Text(_("Nobody has called 'play' yet: no play.")))
        return Group(*lines)
    lines.append(Text(_("Caller: {caller}").format(caller=caller_text(caller))))
    history = record.history
    if history.tricks:
        lines.append(trick_rows_table(history.tricks, title=_("Tricks")))
    claim = history.claim
    if claim is not None:
        lines.append(
            Text(
                _("Seat {seat} claims with {fu} won + {old} shown = a total of {total}:").format(
                    seat=claim.seat,
                    fu=plural(claim.fu, "fu"),
                    old=plural(claim.old.bit_count(), "Old card"),
                    total=claim.total,
                )
            )
        )
        lines.append(hand_table(claim.old, claim.old, _("The Old cards shown")))
    if record.outcome is None:
        lines.append(Text(_("Unfinished: no result yet.")))
    else:
        lines.append(Text(_("Result: {outcome}").format(outcome=outcome_text(record.outcome)), style="bold"))
        lines.append(Text(_("Net points: {points}").format(points=points_text(record.outcome.points))))
    return Group(*lines)


# ---------------------------------------------------------------- narration


def play_words(pos: Position, move: Play, names: Sequence[str] | None = None) -> str:
    """What the seat to move does with ``move`` (before it is played); with ``names``, the seat
    named (``seat 1 (rule#2)``)."""
    s = _named(pos.to_move, names)
    if not pos.trick:
        return _("seat {seat} leads {play}").format(seat=s, play=move)
    if move.kind == DISCARD:
        return _("seat {seat} discards {cards} face down").format(seat=s, cards=format_cards(move.cards))
    return _("seat {seat} beats with {play}").format(seat=s, play=move)


def _named(seat: int, names: Sequence[str] | None) -> str:
    """A seat number, with its player's name after it when ``names`` are given (``1 (rule#2)``),
    to fill a message's ``seat {seat}``."""
    return str(seat) if not names else f"{seat} ({names[seat]})"


def narrate_pv(pos: Position, pv: list[Play], first: int = 1, names: Sequence[str] | None = None) -> list[str]:
    """The principal variation told trick by trick, replayed on a copy of ``pos``.

    One line a trick: who leads, who beats, who discards, who wins the fu; then a claim with its
    total, and finally the result with net points (R14–R17). Tricks are numbered from ``first``
    (a position does not say how many were played; a caller that knows passes it); ``names`` (by
    seat) name the players beside their seats.
    """
    p = pos.copy()
    lines: list[str] = []
    n = first
    words: list[str] = []
    if p.trick:
        words = [_("so far seat {seat} led {play}").format(seat=_named(p.leader, names), play=p.trick[0])]
        for i, play in enumerate(p.trick[1:], 1):
            seat = _named((p.leader + i) % 3, names)
            words.append(
                _("seat {seat} discarded {cards}").format(seat=seat, cards=format_cards(play.cards))
                if play.kind == DISCARD
                else _("seat {seat} beat with {play}").format(seat=seat, play=play)
            )
    for move in pv:
        s = p.to_move
        if move.kind == CLAIM:
            old = p.old_cards(s)
            total = p.claim_total()
            shown = format_cards(old) if old else _("none")
            lines.append(
                _("claim: seat {seat} claims with {fu} + {old} ({shown}) = a total of {total}, {worth}").format(
                    seat=_named(s, names),
                    fu=plural(p.fu[s], "fu"),
                    old=plural(old.bit_count(), "Old card"),
                    shown=shown,
                    total=total,
                    worth=worth_text(total, s, p.caller),
                )
            )
            p.push(move)
            break
        words.append(play_words(p, move, names))
        before = p.fu[:]
        p.push(move)
        if not p.trick:  # the trick is complete (R10)
            winner = p.to_move
            won = p.fu[winner] - before[winner]
            wins = _("; seat {seat} wins {won} fu (fu {fu})").format(seat=_named(winner, names), won=won, fu=fu_list(p.fu))
            lines.append(_("trick {n}: ").format(n=n) + "; ".join(words) + wins)
            words = []
            n += 1
    if words:  # cannot happen with a full pv (it runs to the end of the deal)
        lines.append(_("trick {n}: ").format(n=n) + "; ".join(words) + " …")
    if p.outcome is not None:
        lines.append(result_line(p.outcome))
    return lines


def move_words(pos: Position, move: Play) -> str:
    """What the seat to move does with ``move``, in the words of ``lukfu solve``'s narration."""
    if move.kind == CLAIM:
        s = pos.to_move
        old = pos.old_cards(s).bit_count()
        return _("seat {seat} claims ({fu} + {old} = {total})").format(
            seat=s, fu=plural(pos.fu[s], "fu"), old=plural(old, "Old card"), total=pos.claim_total()
        )
    return play_words(pos, move)
