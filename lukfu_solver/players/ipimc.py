"""The inference player ``ipimc``: the PIMC player with its sampled deals weighted by what the
other seats did (``hidden.inference``, ``docs/inference.md``).

Everything but the weights is the ``pimc`` player's: the same levels, candidates, samples and
node budgets. The weights are likelihoods under the opponent model (the call curve fitted on
self-play records of the ``pimc`` player, and its own candidate moves, rebuilt from each seat's
facts), tempered so the effective sample size stays at a floor. As shipped:

- **the call** of seat 1 or 2 is valued on pimc's own call samples, each weighted by the
  likelihood that the earlier seats passed with the hands it gives them (a seat that passed
  seldom held a strong hand); the Master's call is pimc's;
- **the play phase** weighs the samples by the other seats' calls (``evidence="calls"``); the
  weights by their plays too (``evidence="plays"``, the candidate model) are kept as an option:
  on 12 samples their likelihoods are so sharp that the weighted estimates rest on a few deals,
  and that measured no gain (``docs/inference.md``).

The deals are exactly the ones ``pimc`` draws at the same decision with the same seed (common
random numbers): the two differ only where the weights change a choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..analysis.advice import policy_calls
from ..cards import CardSet
from ..hidden.calls import call_values
from ..hidden.carry import Particle, carry_pool, extends, fresh
from ..hidden.inference import ESS_SHARE, Candidates, Facts, OpponentModel, Weights, call_terms, temper, weigh
from ..hidden.pimc import estimate
from ..hidden.sampling import deal_others
from ..plays import Play
from ..view import HAND_SIZE, SeatView
from .pimc import CALL_CALIBRATION, DEFAULT_LEVEL, LEVELS, Analysis, PimcPlayer, candidate_moves
from .rule import Ctx, hand_strength_fast, keep_order_fast, rule_move, rule_move_fast

RULE_FITTED: dict[str, Any] = {"slope": 0.851, "threshold": 5.339, "eps": (0.879, 0.404, 0.410), "lam": 0.2}
"""The rule model's parameters (the earlier opponent model, the rule player softened:
:func:`rule_model`), fitted by maximum likelihood on self-play records of the level-2 ``pimc``
player: 60 deals, match seed 1901 (``python -m bench.inference``; the figures
in ``bench/results/inference.json``, ``fit``). The discard softness ``lam`` is the exception:
its maximum-likelihood value (1.24) made the weights of whole views collapse onto a few deals
and put *less* probability on the true cards than uniform sampling; it was set to 0.2 by the
accuracy on 8 tuning deals (match seed 1902: 0.027 nats a hidden card against 0.015 at 1.24),
and the accuracy is reported on other deals (``docs/inference.md``)."""
MODEL_LEVEL = 2
"""The level of the ``pimc`` player the shipped model was fitted on."""
FITTED: dict[str, Any] = {
    "slope": 0.79,
    "threshold": 5.268,
    "eps": (0.86, 0.446, 0.444),
    "ranks": (
        (1.0, 0.7726, 0.5533, 0.4735, 0.472, 0.4183, 0.3905, 0.2431),
        (1.0, 0.3063, 0.1237, 0.1144, 0.1393),
        (1.0, 0.2502, 0.1398, 0.1888),
    ),
    "temperature": 0.05,
}
"""The opponent model's parameters: the rank model over the level-2 ``pimc`` player's own
candidates (``players.pimc.candidate_moves``), fitted by maximum likelihood on 300 self-play
deals of that player, match seed 1911 (``python -m train.inference_model``, ``fitted`` in
``bench/results/inference-model.json``): the call curve, and for each play kind (lead, follow,
discard) a weight for each place among the candidates (0 the rule player's choice); ``eps``,
the one-share candidate mixture's, is kept beside them. The ``temperature`` (the likelihood's
exponent in the weights) is the one with the best accuracy over groups of 12 samples (level 2's)
on 40 other deals (match seed 1912), ``calibration`` in the same file."""


def rule_policy(facts: Facts) -> Play:
    """The rule player's move for a seat's facts (the opponent model's policy)."""
    return rule_move(Ctx(*facts))


def rule_policy_moves(facts: Facts, moves: Sequence[Play]) -> Play:
    """:func:`rule_policy`'s move, given the legal moves the replay has listed (its leads then the
    claim when allowed, or its beating plays): ``players.rule.rule_move_fast``, the same move
    faster (the rule model asks it at every decision of every deal it weighs)."""
    return rule_move_fast(Ctx(*facts), moves)


def keep_order(facts: Facts) -> list[int]:
    """The deciding seat's cards, least worth keeping first: the order of the rule player's
    discard (its keep values, as when it follows; ``players.rule.keep_order_fast``, the same order
    as ``discard_order(hand, seat_keep_values(ctx))``, faster)."""
    return keep_order_fast(Ctx(*facts))


def pimc_candidates(level: int = MODEL_LEVEL) -> Candidates:
    """The candidate moves of the ``pimc`` player at ``level`` for a seat's facts (the rule
    player's choice first): the moves it values, so the only ones it ever plays."""
    limit = LEVELS[level].max_candidates

    def candidates(facts: Facts, legal: Sequence[Play], discard: int) -> list[Play]:
        return candidate_moves(Ctx(*facts), limit, legal, discard)

    return candidates


def opponent_model(level: int = MODEL_LEVEL, **overrides: Any) -> OpponentModel:
    """The opponent model with the fitted parameters (``overrides`` replace some): the candidate
    mixture over the moves of ``pimc`` at ``level`` (:data:`FITTED`)."""
    p = {**FITTED, **overrides}
    eps = tuple(p["eps"])
    ranks = p.get("ranks")
    return OpponentModel(
        rule_policy,
        hand_strength_fast,
        p["slope"],
        p["threshold"],
        eps,
        None,
        0.0,
        pimc_candidates(level),  # type: ignore[arg-type]
        ranks=None if ranks is None else tuple(tuple(q) for q in ranks),
        temperature=p.get("temperature", 1.0),
    )


def rule_model(**overrides: Any) -> OpponentModel:
    """The earlier opponent model, the rule player softened (:data:`RULE_FITTED`; kept for the
    comparison in ``bench/inference.py``)."""
    p = {**RULE_FITTED, **overrides}
    eps = tuple(p["eps"])
    return OpponentModel(
        rule_policy,
        hand_strength_fast,
        p["slope"],
        p["threshold"],
        eps,  # type: ignore[arg-type]
        keep_order,
        p["lam"],
        temperature=p.get("temperature", 1.0),
        policy_moves=rule_policy_moves,
    )


EVIDENCE = ("plays", "calls", "none")
"""What weighs the play phase's samples: the other seats' calls and plays (``plays``), their
calls only (``calls``), nothing (``none``: the play phase is pimc's)."""


def call_deals(hand: CardSet, seat: int, samples: int, seed: int) -> list[list[CardSet]]:
    """The deals ``hidden.calls.call_values`` draws for ``samples`` samples from ``seed``, in its
    order (a master generator gives each sample its seed, the sample deals the others' hands)."""
    master = random.Random(seed)
    seeds = [master.getrandbits(64) for _ in range(samples)]
    return [deal_others(hand, seat, random.Random(s)) for s in seeds]


class IpimcPlayer(PimcPlayer):
    """PIMC over importance-weighted deals (see the module notes); ``share`` is the effective
    sample size floor as a share of the samples.

    ``pool`` above 1 resamples instead (sampling-importance-resampling): ``pool`` times the
    level's samples are drawn and weighed (the floor a share of them), and the level's samples
    are drawn from them in proportion to the weights (systematic resampling, from the decision's
    seed), then valued with weight 1 each; ``Analysis.weights`` are then the pool's. Measured
    with the rule model from a pool of 4 (``docs/inference.md``): not shown stronger than
    ``pimc``, at 2.8 times its median decision time, so the default stays 1.

    ``carry`` (with a pool and ``evidence="plays"``) keeps the pool from one decision of a game to
    the next (``hidden.carry``): the deals still consistent with the new view are kept, their
    log-likelihoods updated by the other seats' actions since, and fresh draws top the pool up,
    so a decision replays the whole history only for the fresh deals. A decision's analysis then
    depends on the game's earlier decisions of this player object (deterministically: a game is
    played by one player in order); a view that does not extend the last one starts afresh.
    Measured: few deals survive a decision (a median of 9 of 48), and the cost was 2.4 times
    pimc's median decision time; with the rule model's faster replay (the fast rule policy, the
    lean state: the same games) 1.8 times (``docs/inference.md``, "The carried pool", "Round 11").
    The default stays False; the spec ``ipimc:L:Pc`` is :func:`carried_player`."""

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        seed: int = 0,
        *,
        model: OpponentModel | None = None,
        share: float = ESS_SHARE,
        pool: int = 1,
        evidence: str = "calls",
        weigh_call: bool = True,
        carry: bool = False,
        name: str | None = None,
        calibration: float = CALL_CALIBRATION,
        **overrides: int,
    ) -> None:
        if name is None:
            name = "ipimc" if level == DEFAULT_LEVEL and pool == 1 else f"ipimc:{level}"
            name += f":{pool}" if pool != 1 else ""
        super().__init__(level, seed, name=name, calibration=calibration, **overrides)
        self.model = model or opponent_model(level)
        self.share = share
        self.pool = pool
        if evidence not in EVIDENCE:
            raise ValueError(f"evidence {evidence!r} is not one of {EVIDENCE}")
        self.evidence = evidence
        self.weigh_call = weigh_call
        self.carry = carry
        self._carried: tuple[SeatView, list[Particle]] | None = None
        self.kept = 0
        """How many deals of the last decision's pool were carried (the rest drawn afresh)."""

    def _analyse_call(self, view: SeatView, rng: random.Random) -> Analysis:
        """pimc's call valuation on the same samples, weighted by the earlier seats' passes."""
        if not self.weigh_call or view.seat == 0:
            return super()._analyse_call(view, rng)
        n = self.params.call_samples
        seed = rng.getrandbits(64)
        v = call_values(view.hand, view.seat, n, seed, self._evaluator(2 * n, HAND_SIZE), policy_calls)
        deals = call_deals(view.hand, view.seat, len(v.samples), seed)
        w = temper([call_terms(self.model, d, view.seat, view.seat) for d in deals], self.share)
        plays, passes = [r.play for r in v.samples], [r.pass_ for r in v.samples]
        play = estimate("play", plays, plays, v.play.incomplete, w.weights)
        pass_ = estimate("pass", passes, [-2 * x for x in passes], 0, w.weights)
        a = self._call_choice(play, pass_, n, v.nodes)
        a.weights = w
        return a

    def weigh(self, view: SeatView, deals: Sequence[Any]) -> Weights | None:
        """The deals' weights by the :attr:`evidence` (None: uniform)."""
        if self.evidence == "none":
            return None
        if self.evidence == "calls":
            assert view.caller is not None
            return temper([call_terms(self.model, d.dealt(), view.caller, view.seat) for d in deals], self.share)
        return weigh(self.model, view, deals, self.share)

    def draw(self, view: SeatView, sampler: Any, rng: random.Random) -> tuple[list[Any], Weights | None]:
        """The deals weighted by the opponent model's likelihood of the other seats' actions (or,
        with a ``pool``, resampled by it)."""
        n = self.params.samples
        if self.pool == 1:
            deals = sampler.samples(n)
            return deals, self.weigh(view, deals)
        if self.carry and self.evidence == "plays":
            pool, w = self._carried_pool(view, sampler, rng)
        else:
            pool = sampler.samples(self.pool * n)
            w = self.weigh(view, pool)
        if w is None:
            return pool[:n], None
        step = sum(w.weights) / n
        u = rng.random() * step
        picked: list[Any] = []
        acc = 0.0
        for d, x in zip(pool, w.weights, strict=True):
            acc += x
            while u < acc and len(picked) < n:
                picked.append(d)
                u += step
        picked += pool[len(picked) - n :] if len(picked) < n else []
        return picked[:n], w

    def _carried_pool(self, view: SeatView, sampler: Any, rng: random.Random) -> tuple[list[Any], Weights]:
        """The pool carried from this player's last decision (when ``view`` extends its view),
        topped up with fresh draws, and its weights (see the class notes)."""
        size = self.pool * self.params.samples
        last = self._carried
        kept = carry_pool(self.model, last[1], view, rng) if last is not None and extends(last[0], view) else []
        particles = kept + [fresh(self.model, view, d) for d in sampler.samples(size - len(kept))]
        self._carried = (view, particles)
        self.kept = len(kept)
        w = temper([q.log for q in particles], self.share, self.model.temperature)
        return [q.deal for q in particles], w


def carried_player(level: int, seed: int, pool: int) -> IpimcPlayer:
    """The player ``ipimc:L:Pc``: the resampling configuration with the carried pool. ``pool``
    times the level's samples (2-4), weighed by the rule model's likelihood (:func:`rule_model`,
    temperature 1) of the other seats' calls and plays, carried from one of its decisions to the
    next (``hidden.carry``), the level's samples drawn from it by weight; its call weighted by
    the earlier passes (the same model's call curve). The configuration the accuracy of
    resampling chose (``docs/inference.md``, "Resampling from a larger pool") and the one whose
    cost "The carried pool" measures."""
    if not 2 <= pool <= 4:
        raise ValueError(f"the carried pool needs a pool of 2-4, got {pool}")
    return IpimcPlayer(
        level,
        seed,
        model=rule_model(),
        pool=pool,
        evidence="plays",
        weigh_call=True,
        carry=True,
        name=f"ipimc:{level}:{pool}c",
    )
