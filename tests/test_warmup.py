"""The compile announcement's library side: kernel_ready reads numba's cache without compiling
or importing numba, and says no for an empty cache; the command line answers a small endgame
with the reference search instead of waiting for a compilation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lukfu_solver.search import warmup

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
