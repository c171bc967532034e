"""Luk Fu for game-AI research: one episode type over lukfu's rules and three standard
interfaces on it, each in its own module and importing its framework only there:

- :mod:`.pettingzoo` — ``env()`` / ``raw_env()``, a PettingZoo AEC environment;
- :mod:`.gymnasium` — importing it registers ``lukfu/LukFuSeat-v0``, one seat against two engines;
- :mod:`.openspiel` — importing it registers the OpenSpiel game ``python_luk_fu``.

They share one action space (:mod:`.actions`: 40 actions, a play made card by card), one
episode (:mod:`.episode`: seeded like ``game.play_deal``, a lukfu record at any point), one
observation layout (:mod:`.observation`), the exact oracle and the sampler of consistent deals
(:mod:`.oracle`) and lukfu's engines as policies (:mod:`.policies`). ``docs/research.md`` says
how to use them; ``pip install ".[research]"`` brings the three frameworks.
"""

from .actions import CALL_PASS, CALL_PLAY, CLAIM_ACTION, FINISH, NUM_ACTIONS, Decision, action_name
from .episode import AGENTS, Episode, IllegalAction, SeededDealer

__all__ = [
    "AGENTS",
    "CALL_PASS",
    "CALL_PLAY",
    "CLAIM_ACTION",
    "FINISH",
    "NUM_ACTIONS",
    "Decision",
    "Episode",
    "IllegalAction",
    "SeededDealer",
    "action_name",
]
