"""Shared checks for the CLI tests: the project's promise for bad input, and a count of the work
a command starts (so "refused before any work" is a count, not a time)."""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def assert_bad_input(result: Any, *needles: str) -> str:
    """Exit 2, nothing on stdout, exactly one ``error: …`` line on stderr, no traceback; the line
    contains every needle. Returns the line."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


WORK = {
    "solvers": ("lukfu_solver.search", "make_solver"),
    "samplers": ("lukfu_solver.hidden.quick", "make_sampler"),
    "deals": ("lukfu_solver.game", "deal_hands"),
    "call deals": ("lukfu_solver.hidden.sampling", "deal_others"),
}
"""The functions every piece of real work starts from: a solver (the one factory), a sampler of
consistent deals, a dealt game, a sampled deal of the call valuation."""


@contextmanager
def counting_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count the calls of :data:`WORK`'s functions made in this process while the block runs
    (every module holding one of them gets a counting wrapper): a refusal that comes before any
    work leaves every count at 0."""
    counts: Counter[str] = Counter()
    for name, (module, attr) in WORK.items():
        real = getattr(importlib.import_module(module), attr)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            counts[_name] += 1
            return _real(*args, **kwargs)

        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith(("lukfu_solver", "lukfu_cli")) and getattr(mod, attr, None) is real:
                monkeypatch.setattr(mod, attr, counted)
    yield counts
