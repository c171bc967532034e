"""The table of an episode as text, every card shown: what the environments' ``render()`` returns.

>>> from lukfu_solver.env.episode import Episode
>>> print(table_text(Episode.from_seed(7)))
deal 1, calls: -
seat_0  Master   fu 0  C69S246M567T1235
seat_1  seat 1   fu 0  C1378S57M24T4789
seat_2  seat 2   fu 0  C245S1389M1389T6
to act: seat_0
"""

from __future__ import annotations

from ..cards import format_cards
from .episode import Episode


def table_text(ep: Episode) -> str:
    """Every hand by person with its role and fu, the calls, the trick in progress, the cards
    chosen so far and the result."""
    if ep.hands is None or ep.phase == "deal":
        return f"dealing (deal {ep.deals + 1})"
    lines = [
        f"deal {ep.deals}"
        + (f" ({len(ep.passed_out)} passed out)" if ep.passed_out else "")
        + f", calls: {','.join(ep.calls) or '-'}"
    ]
    pos = ep.pos
    for person in range(3):
        seat = ep.seat_of(person)
        role = "Master" if seat == 0 else f"seat {seat}"
        if ep.caller == seat:
            role += "*"
        fu = pos.fu[seat] if pos is not None else 0
        lines.append(f"{ep.names[person]:<7} {role:<8} fu {fu}  {format_cards(ep.hand(seat))}")
    if pos is not None and pos.trick:
        lines.append(
            "trick: "
            + ", ".join(f"{p} ({ep.names[ep.person_of((pos.leader + i) % 3)]})" for i, p in enumerate(pos.trick))
        )
    if ep.chosen:
        lines.append(f"chosen: {format_cards(ep.chosen)}")
    person = ep.current_person()
    if person is not None:
        lines.append(f"to act: {ep.names[person]}")
    elif ep.truncated:
        lines.append(f"truncated: {len(ep.passed_out)} deals passed out (R3)")
    elif ep.outcome is not None:
        lines.append(f"result: {ep.outcome.how}, points by person {','.join(map(str, ep.returns()))}")
    return "\n".join(lines)
