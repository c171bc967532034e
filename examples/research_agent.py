"""Train a small agent through the Gymnasium environment in minutes on a CPU, numpy only, and
measure it against ``random`` and ``rule`` with 95% intervals (``docs/research.md``).

The agent is a one-hidden-layer network from the observation (461 zeros and ones) to the 40
actions, its logits masked to the legal ones. It learns in two stages, both through
``lukfu/LukFuSeat-v0`` against two ``rule`` engines:

1. **imitation**: the ``rule`` engine plays the agent's seat through the action scheme
   (``engine_policy``), and the network learns its actions (cross-entropy, Adam);
2. **policy gradient**: the network plays (sampling from its policy) and REINFORCE raises the
   log-probability of its actions by the deal's points minus a running mean.

Then the greedy network, ``rule`` and ``random`` each sit in the agent's seat on the same deals
(the same seeds, the seat rotating), against two ``rule`` engines and against two ``random``
ones: their mean points a deal with 95% intervals, and the agent's paired differences.

Run: ``python examples/research_agent.py [--quick] [--out bench/results/research-agent.json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium
import numpy as np

from lukfu_solver.env import gymnasium as lg
from lukfu_solver.env.observation import OBSERVATION_SIZE
from lukfu_solver.match import interval

ROOT = Path(__file__).resolve().parent.parent
Policy = Callable[[gymnasium.Env, np.ndarray, dict], int]
"""Given the environment, the observation and the info: the agent's action."""


class Net:
    """Observation → hidden (ReLU) → 40 logits, trained with Adam."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0, 1 / np.sqrt(OBSERVATION_SIZE), (OBSERVATION_SIZE, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, 40)),
            "b2": np.zeros(40),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden layer and the masked action probabilities of a batch."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0)
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return h, e / e.sum(axis=1, keepdims=True)

    def step(self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray, weights: np.ndarray, lr: float) -> float:
        """One Adam step on ``-mean(weight * log p(action))``; returns that loss."""
        h, probs = self.forward(x, mask)
        n = len(actions)
        chosen = probs[np.arange(n), actions]
        loss = float(-(weights * np.log(chosen + 1e-12)).mean())
        grad_logits = probs.copy()
        grad_logits[np.arange(n), actions] -= 1
        grad_logits *= weights[:, None] / n
        p = self.params
        grads = {"w2": h.T @ grad_logits, "b2": grad_logits.sum(axis=0)}
        grad_h = (grad_logits @ p["w2"].T) * (h > 0)
        grads["w1"] = x.T @ grad_h
        grads["b1"] = grad_h.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh, vh = self.m[k] / (1 - 0.9**self.t), self.v[k] / (1 - 0.999**self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss


def play(env: gymnasium.Env, seed: int, policy: Policy) -> tuple[list[tuple[np.ndarray, np.ndarray, int]], float]:
    """One episode from ``seed``: the agent's (observation, mask, action) steps and its points."""
    obs, info = env.reset(seed=seed)
    steps, done, reward = [], False, 0.0
    while not done:
        action = policy(env, obs, info)
        steps.append((obs, info["action_mask"], action))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return steps, float(reward)


def imitation(net: Net, deals: int, epochs: int, rng: np.random.Generator) -> dict[str, float]:
    """Stage 1: learn the rule engine's actions in the agent's seat."""
    env = gymnasium.make(lg.ENV_ID, opponents="rule")
    teacher = lg.engine_policy("rule")
    xs, masks, acts = [], [], []
    for d in range(deals):
        steps, _ = play(env, 1_000_000 + d, lambda e, o, i: teacher(e))
        for o, m, a in steps:
            xs.append(o)
            masks.append(m)
            acts.append(a)
    x, mask, act = np.array(xs, float), np.array(masks), np.array(acts)
    ones = np.ones(len(act))
    loss = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(act))
        for i in range(0, len(act), 256):
            b = order[i : i + 256]
            loss = net.step(x[b], mask[b], act[b], ones[b], 1e-3)
    _, probs = net.forward(x, mask)
    return {
        "samples": len(act),
        "final_loss": round(loss, 4),
        "agreement": round(float((probs.argmax(1) == act).mean()), 4),
    }


def reinforce(net: Net, deals: int, rng: np.random.Generator) -> dict[str, float]:
    """Stage 2: REINFORCE with a running-mean baseline, sampling from the network's policy."""
    env = gymnasium.make(lg.ENV_ID, opponents="rule")

    def sample(e: gymnasium.Env, o: np.ndarray, i: dict) -> int:
        _, probs = net.forward(o[None, :].astype(float), i["action_mask"][None, :])
        return int(rng.choice(40, p=probs[0]))

    baseline, batch, rewards = 0.0, [], []
    for d in range(deals):
        steps, reward = play(env, 2_000_000 + d, sample)
        rewards.append(reward)
        batch += [(o, m, a, reward - baseline) for o, m, a in steps]
        baseline += 0.01 * (reward - baseline)
        if (d + 1) % 32 == 0:
            x = np.array([s[0] for s in batch], float)
            mask = np.array([s[1] for s in batch])
            act = np.array([s[2] for s in batch])
            adv = np.array([s[3] for s in batch]) / 7.0  # points lie in -14..14
            net.step(x, mask, act, adv, 3e-4)
            batch = []
    return {"deals": deals, "mean_points": round(float(np.mean(rewards)), 4)}


def evaluate(net: Net, deals: int, opponents: str) -> dict[str, object]:
    """The greedy network, ``rule`` and ``random`` in the agent's seat on the same deals."""
    rng = np.random.default_rng(0)

    def greedy(e: gymnasium.Env, o: np.ndarray, i: dict) -> int:
        return int(net.forward(o[None, :].astype(float), i["action_mask"][None, :])[1].argmax())

    rule = lg.engine_policy("rule")

    def uniform(e: gymnasium.Env, o: np.ndarray, i: dict) -> int:
        return int(rng.choice(np.flatnonzero(i["action_mask"])))

    policies: dict[str, Policy] = {"agent": greedy, "rule": lambda e, o, i: rule(e), "random": uniform}
    points: dict[str, list[float]] = {name: [] for name in policies}
    envs = [gymnasium.make(lg.ENV_ID, opponents=opponents, seat=s) for s in range(3)]
    for d in range(deals):
        for name, policy in policies.items():
            points[name].append(play(envs[d % 3], 3_000_000 + d, policy)[1])
    out: dict[str, object] = {}
    for name, values in points.items():
        m, lo, hi = interval(values)
        out[name] = {"mean": round(m, 3), "ci95": [round(lo, 3), round(hi, 3)]}
    for base in ("rule", "random"):
        diffs = [a - b for a, b in zip(points["agent"], points[base], strict=True)]
        m, lo, hi = interval(diffs)
        out[f"agent_minus_{base}"] = {"mean": round(m, 3), "ci95": [round(lo, 3), round(hi, 3)]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a few hundred deals a stage, to check it runs")
    ap.add_argument("--imitation-deals", type=int, default=3000)
    ap.add_argument("--reinforce-deals", type=int, default=4000)
    ap.add_argument("--eval-deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "research-agent.json")
    args = ap.parse_args()
    if args.quick:
        args.imitation_deals, args.reinforce_deals, args.eval_deals = 200, 200, 150
    rng = np.random.default_rng(args.seed)
    net = Net(64, rng)
    t0 = time.perf_counter()
    stage1 = imitation(net, args.imitation_deals, 8, rng)
    t1 = time.perf_counter()
    print(f"imitation: {stage1} in {t1 - t0:.0f} s", file=sys.stderr)
    stage2 = reinforce(net, args.reinforce_deals, rng)
    t2 = time.perf_counter()
    print(f"policy gradient: {stage2} in {t2 - t1:.0f} s", file=sys.stderr)
    results = {opp: evaluate(net, args.eval_deals, opp) for opp in ("rule", "random")}
    t3 = time.perf_counter()
    report = {
        "example": "examples/research_agent.py",
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "imitation": stage1,
        "reinforce": stage2,
        "seconds": {"imitation": round(t1 - t0, 1), "reinforce": round(t2 - t1, 1), "evaluation": round(t3 - t2, 1)},
        "evaluation_points_a_deal": {f"against two {opp}": r for opp, r in results.items()},
    }
    print(json.dumps(report["evaluation_points_a_deal"], indent=2))
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"saved {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
