"""The research environments' speed: uniformly random legal actions through each interface
(PettingZoo, Gymnasium against two random engines, OpenSpiel with its chance nodes) on fixed
seeds, beside a plain lukfu playout of the same deals in the same run (``Position.legal_moves`` +
``push``, a uniformly random play each time) and the player-driven table loop (``play_deal`` with
three random players).

An action is one step of the card-by-card scheme (``lukfu_solver/env/actions.py``); a play is
one to nine of them. Prints and saves, per interface: actions a second (median over runs),
the microseconds an action and the milliseconds a deal (median and p95 over the deals), and deals
a second as a ratio to the plain playout's.

Run: ``python -m bench.env_speed [--quick] [--deals 400] [--runs 3] [--out FILE]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import pyspiel

from bench.common import base_parser, ratio, save_json, summary
from lukfu_solver.env import gymnasium as lg
from lukfu_solver.env import openspiel as lo
from lukfu_solver.env import pettingzoo as lz
from lukfu_solver.game import deal_hands, play_deal
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.position import Position

Deal = tuple[float, int]
"""One deal's seconds and actions (or plays)."""


def plain_playout(seed: int) -> Deal:
    """The deal of ``seed`` played on the position type alone, a random legal play each time."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    pos = Position.start(deal_hands(random.Random(seed)), rng.randrange(3))
    plays = 0
    while pos.outcome is None:
        moves = list(pos.legal_moves())
        pos.push(moves[rng.randrange(len(moves))])
        plays += 1
    return time.perf_counter() - t0, plays


def table_loop(seed: int) -> Deal:
    """The deal of ``seed`` through ``play_deal`` with three random players (a seat view each decision)."""
    t0 = time.perf_counter()
    rec = play_deal([RandomPlayer(seed), RandomPlayer(seed + 1), RandomPlayer(seed + 2)], seed)
    return time.perf_counter() - t0, len(rec.plays) + len(rec.calls)


def pettingzoo_deal(env: object, seed: int) -> Deal:
    """One episode of the wrapped PettingZoo environment, random legal actions for every agent."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    env.reset(seed=seed)  # type: ignore[attr-defined]
    steps = 0
    for _agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            env.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
        steps += 1
    return time.perf_counter() - t0, steps


def gymnasium_deal(env: gymnasium.Env, seed: int) -> Deal:
    """One episode of ``lukfu/LukFuSeat-v0`` (made by ``gymnasium.make``) against two random engines."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    _, info = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        done, steps = terminated or truncated, steps + 1
    return time.perf_counter() - t0, steps


def openspiel_deal(game: pyspiel.Game, seed: int) -> Deal:
    """One game of ``python_luk_fu``, chance sampled, random legal actions (chance steps counted too)."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return time.perf_counter() - t0, steps


def measure(run: Callable[[int], Deal], seeds: range) -> dict[str, object]:
    """Play every seed once; the rates and the per-deal and per-step figures."""
    deals = [run(s) for s in seeds]
    seconds = sum(t for t, _ in deals)
    steps = sum(n for _, n in deals)
    return {
        "deals": len(deals),
        "steps": steps,
        "steps_per_s": round(steps / seconds, 1),
        "deals_per_s": round(len(deals) / seconds, 2),
        "us_per_step": summary((1e6 * t / max(n, 1) for t, n in deals), 2),
        "ms_per_deal": summary((1e3 * t for t, _ in deals), 3),
    }


def main() -> None:
    parser = base_parser(__doc__.splitlines()[0], "env-speed.json")
    parser.add_argument("--deals", type=int, default=400, help="deals a run, the same seeds for every interface")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians over them")
    args = parser.parse_args()
    deals = 60 if args.quick else args.deals
    pz = lz.env()
    gym = gymnasium.make(lg.ENV_ID, opponents="random")
    game = pyspiel.load_game(lo.GAME_NAME)
    loops: dict[str, Callable[[int], Deal]] = {
        "plain_playout": plain_playout,
        "play_deal": table_loop,
        "pettingzoo": lambda s: pettingzoo_deal(pz, s),
        "gymnasium": lambda s: gymnasium_deal(gym, s),
        "openspiel": lambda s: openspiel_deal(game, s),
    }
    runs: dict[str, list[dict[str, object]]] = {name: [] for name in loops}
    for r in range(args.runs):
        seeds = range(10_000 * (r + 1), 10_000 * (r + 1) + deals)
        for name, loop in loops.items():  # interleaved, so each run's load falls on all alike
            runs[name].append(measure(loop, seeds))
        print(f"run {r + 1}/{args.runs} done", file=sys.stderr)
    base = statistics.median(float(m["deals_per_s"]) for m in runs["plain_playout"])  # type: ignore[arg-type]
    result: dict[str, object] = {"deals_per_run": deals, "runs": args.runs, "interfaces": {}}
    print(f"{'loop':<14} {'steps/s':>9} {'us/step med':>12} {'p95':>8} {'ms/deal med':>12} {'p95':>8} {'x plain':>8}")
    for name, ms in runs.items():
        mid = sorted(ms, key=lambda m: float(m["steps_per_s"]))[len(ms) // 2]  # type: ignore[arg-type]
        deals_s = statistics.median(float(m["deals_per_s"]) for m in ms)  # type: ignore[arg-type]
        entry = {
            "steps_per_s_median": statistics.median(float(m["steps_per_s"]) for m in ms),  # type: ignore[arg-type]
            "deals_per_s_median": deals_s,
            "deals_per_s_vs_plain_playout": ratio(deals_s, base),
            "median_run": mid,
            "runs": ms,
        }
        result["interfaces"][name] = entry  # type: ignore[index]
        us, md = mid["us_per_step"], mid["ms_per_deal"]
        print(
            f"{name:<14} {entry['steps_per_s_median']:>9,.0f} {us['median']:>12} {us['p95']:>8} "  # type: ignore[index]
            f"{md['median']:>12} {md['p95']:>8} {entry['deals_per_s_vs_plain_playout']:>8}"  # type: ignore[index]
        )
    print(f"saved {save_json(result, args.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
