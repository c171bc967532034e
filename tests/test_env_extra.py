"""The research frameworks are an extra: the library, the core of ``lukfu_solver.env`` included,
imports and plays without gymnasium, pettingzoo and open-spiel, and each interface module that
needs one says which extra to install."""

from __future__ import annotations

import subprocess
import sys

BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel'):
            raise ImportError(f'No module named {name!r} (blocked)')
        return None
sys.meta_path.insert(0, Block())
"""

PLAY = """
import lukfu_solver, lukfu_solver.env
from lukfu_solver.env.episode import Episode
from lukfu_solver.env.observation import observation
from lukfu_solver.env.policies import EnginePolicy
from lukfu_solver.env import oracle
ep, rule = Episode.from_seed(5), EnginePolicy('rule')
while not ep.is_over:
    ep.apply(rule(ep))
observation(ep, 0)
ep.record().replay()
for name in ('pettingzoo', 'gymnasium', 'openspiel'):
    try:
        __import__('lukfu_solver.env.' + name)
    except ImportError as e:
        assert "pip install 'lukfu[research]'" in str(e), e
    else:
        raise AssertionError(name + ' imported without its framework')
print('ok')
"""


def test_the_library_plays_without_the_research_extra() -> None:
    out = subprocess.run([sys.executable, "-c", BLOCK + PLAY], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
