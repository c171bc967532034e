"""The compile announcement's library side: kernel_ready reads numba's cache without compiling
or importing numba, and says no for an empty cache; the command line answers a small endgame
with the reference search instead of waiting for a compilation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lukfu_solver.search import compiled, warmup

ENDGAME = "C5S12T4/C37S39/C126M1 2 2 5,1,2 S678M2569T2356789 -"


def test_kernel_ready_imports_nothing_heavy() -> None:
    code = (
        "import sys; from lukfu_solver.search.warmup import kernel_ready; kernel_ready(); print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_an_empty_cache_is_not_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert warmup.kernel_ready() is False


def test_every_entry_point_is_a_kernel_function() -> None:
    for module, name in warmup.ENTRY_POINTS:
        assert name in warmup._first_lines(module), (module, name)


@pytest.mark.slow
def test_a_small_endgame_does_not_wait_for_the_compilation(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-m", "lukfu_cli", "solve", ENDGAME, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "Compiling" not in out.stderr
    assert '"value": 0' in out.stdout
    assert not any(tmp_path.iterdir())  # nothing compiled


def test_the_compilation_is_announced_once_and_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from lukfu_cli import progress
    from lukfu_cli.app import app

    calls: list[str] = []
    monkeypatch.setattr(warmup, "kernel_ready", lambda: False)
    monkeypatch.setattr(compiled, "prepare_kernel", lambda: calls.append("compile") or 61.4)
    monkeypatch.setattr(progress, "_kernel_prepared", False)
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    big = "C5S12T4M3/C37S39M4/C126M15 2 2 4,1,2 S678M269T2356789 -"
    res = CliRunner().invoke(app, ["solve", big, "--reference"])
    assert res.exit_code == 0 and calls == []  # the reference search needs no compilation
    res = CliRunner().invoke(app, ["solve", ENDGAME])
    assert res.exit_code == 0 and calls == []  # a small endgame does not wait for it
    res = CliRunner().invoke(app, ["solve", big])
    assert res.exit_code == 0, res.output
    assert calls == ["compile"]
    assert res.stderr == "compiled in 61 s\n"  # after the spinner (shown on a terminal only)
    res = CliRunner().invoke(app, ["solve", big])
    assert calls == ["compile"]  # once a process


def test_the_cache_directory_is_named_for_every_kernel_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to any phase file of the kernel, or to a switch it compiles in, gives a new cache
    directory, so numba (which checks only a function's own file) can never load a search compiled
    against an old phase or switch."""
    import shutil

    from lukfu_solver.search import switches

    copy = tmp_path / "kernel"
    shutil.copytree(warmup.KERNEL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(warmup, "KERNEL_DIR", copy)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    before = warmup.kernel_cache_dir()
    assert before.parent == tmp_path / "cache"
    (copy / "moves.py").write_text((copy / "moves.py").read_text() + "\n# changed\n")
    after = warmup.kernel_cache_dir()
    assert after != before
    monkeypatch.setattr(switches, "CALLER_AHEAD", not switches.CALLER_AHEAD)
    warmup._digest.cache_clear()
    try:
        assert warmup.kernel_cache_dir() != after
    finally:
        monkeypatch.undo()
        warmup._digest.cache_clear()


def test_the_kernel_compiles_into_that_directory() -> None:
    from lukfu_solver.search.kernel import alphabeta

    assert alphabeta.search._cache.cache_path == str(warmup.kernel_cache_dir())


def test_the_announcement_follows_the_cache(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """With the kernel in the cache nothing is announced (it only loads); for a CPU the cache
    was not compiled for, kernel_ready says no and the compile is announced."""
    from lukfu_cli import progress

    assert warmup.kernel_ready()  # the session's kernel, compiled by the conftest
    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(progress, "_kernel_prepared", False)
    progress.prepare_solver()
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "_kernel_prepared", False)
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    monkeypatch.setattr(compiled, "prepare_kernel", lambda: 58.2)  # not compiled here: a minute
    progress.prepare_solver()
    assert capsys.readouterr().err.endswith("compiled in 58 s\n")
