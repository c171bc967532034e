"""The strength bench's account of where paired games differ (``bench/inference.py``,
``first_differences``): the kind of ipimc's first different decision, its trick, and the points
ipimc's game made minus its control's."""

from __future__ import annotations

from bench.inference import first_differences

LEAD, DISCARD, CLAIM = [0, 1, 1], [3, 6, 1], [4, 0, 0]


def row(plays: list[list[int]], points: int, calls: list[str] | None = None) -> dict:  # type: ignore[type-arg]
    return {"plays": plays, "points": points, **({"calls": calls} if calls is not None else {})}


def test_first_differences_by_kind_and_trick() -> None:
    a, b, c = [0, 2, 1], [0, 4, 1], [1, 8, 1]
    same = (row([a, b, c], 1), row([a, b, c], 1))
    lead = (row([a, b, c, a], 2), row([a, b, c, b], -2))  # trick 2's lead
    discard = (row([a, DISCARD], -4), row([a, b], 0))  # a discard where the control followed
    follow = (row([a, c], 3), row([a, b], 1))
    claim = (row([CLAIM], 2), row([a, b], 0))
    call = (row([a], 4, ["play"]), row([b], 0, ["pass", "play"]))
    prefix = (row([a, b], 1), row([a, b, c], 0))  # ipimc's game ended first: nothing of its own differs
    out = first_differences([same, lead, discard, follow, claim, call, prefix])
    kinds = out["by_kind"]
    assert kinds["lead"] == {"games": 1, "points_sum": 4, "mean": 4.0}
    assert kinds["discard"] == {"games": 1, "points_sum": -4, "mean": -4.0}
    assert kinds["follow"]["points_sum"] == 2 and kinds["claim"]["points_sum"] == 2
    assert kinds["call"] == {"games": 1, "points_sum": 4, "mean": 4.0}
    assert sum(k["games"] for k in kinds.values()) == 5
    assert out["by_trick"]["2"]["games"] == 1 and out["by_trick"]["1"]["games"] == 3
