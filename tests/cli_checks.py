"""Shared assertion for the CLI tests: the project's promise for bad input."""

from __future__ import annotations

from typing import Any


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
