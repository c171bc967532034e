"""The inference player ``ipimc``: the PIMC player with its sampled deals weighted by what the
other seats did (``hidden.inference``, ``docs/inference.md``).

Everything but the deals' weights is the ``pimc`` player's: the same levels, candidates, samples
and node budgets. The spec ``ipimc`` (``ipimc:L``) is the configuration measured ahead of
``pimc`` at the same level (:func:`pool_player`, the same as ``ipimc:L:4c``): a pool of four
times the level's samples weighed by the rule model's likelihood of the other seats' calls and
plays, carried from one of its decisions to the next, the level's samples resampled from it by
weight; its call at seat 1 or 2 weighted by the earlier passes.

:class:`IpimcPlayer` keeps the other configurations measured on the way, as options: the
weighted call with the play phase weighed by the other seats' calls alone (``ipimc:L:1``,
measured slightly behind ``pimc``), the candidate model's weights by the plays, resampling from
a pool drawn afresh (``ipimc:L:P``).

Without a pool, the deals are exactly the ones ``pimc`` draws at the same decision with the same
seed (common random numbers): the two differ only where the weights change a choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..hidden.calls import call_values
from ..hidden.carry import Particle, carry_pool, extends, fresh
from ..hidden.inference import (
    ESS_SHARE,
    Candidates,
    OpponentModel,
    Weights,
    call_terms,
    resample,
    rule_model,
    temper,
    weigh,
)
from ..hidden.pimc import estimate
from ..plays import Play
from ..policy.calling import PIMC_CALL_CURVE, hand_strength_fast, policy_calls
from ..policy.facts import SeatFacts
from ..policy.rule import rule_move
from ..view import HAND_SIZE, SeatView
from .pimc import CALL_CALIBRATION, DEFAULT_LEVEL, LEVELS, PimcDecision, PimcPlayer, candidate_moves

MODEL_LEVEL = 2
"""The level of the ``pimc`` player the shipped model was fitted on."""
FITTED: dict[str, Any] = {
    "slope": PIMC_CALL_CURVE.slope,
    "threshold": PIMC_CALL_CURVE.threshold,
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


def pimc_candidates(level: int = MODEL_LEVEL) -> Candidates:
    """The candidate moves of the ``pimc`` player at ``level`` for a seat's facts (the rule
    player's choice first): the moves it values, so the only ones it ever plays."""
    limit = LEVELS[level].max_candidates

    def candidates(facts: SeatFacts, legal: Sequence[Play], discard: int) -> list[Play]:
        return candidate_moves(facts, limit, legal, discard)

    return candidates


def opponent_model(level: int = MODEL_LEVEL, **overrides: Any) -> OpponentModel:
    """The opponent model with the fitted parameters (``overrides`` replace some): the candidate
    mixture over the moves of ``pimc`` at ``level`` (:data:`FITTED`)."""
    p = {**FITTED, **overrides}
    eps = tuple(p["eps"])
    ranks = p.get("ranks")
    return OpponentModel(
        rule_move,
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


EVIDENCE = ("plays", "calls", "none")
"""What weighs the play phase's samples: the other seats' calls and plays (``plays``), their
calls only (``calls``), nothing (``none``: the play phase is pimc's)."""


class IpimcPlayer(PimcPlayer):
    """PIMC over importance-weighted deals (see the module notes); ``share`` is the effective
    sample size floor as a share of the samples.

    ``pool`` above 1 resamples instead (sampling-importance-resampling): ``pool`` times the
    level's samples are drawn and weighed (the floor a share of them), and the level's samples
    are drawn from them in proportion to the weights (systematic resampling, from the decision's
    seed), then valued with weight 1 each; ``PimcDecision.weights`` are then the pool's. Drawn
    afresh at every decision, with the rule model from a pool of 4, it was not shown stronger than
    ``pimc``, and costs more than the carried pool (``docs/inference.md``, "Figures").

    ``carry`` (with a pool and ``evidence="plays"``) keeps the pool from one decision of a game to
    the next (``hidden.carry``): the deals still consistent with the new view are kept, their
    log-likelihoods updated by the other seats' actions since, and fresh draws top the pool up,
    so a decision replays the whole history only for the fresh deals. A decision's analysis then
    depends on the game's earlier decisions of this player object (deterministically: a game is
    played by one player in order); a view that does not extend the last one starts afresh.
    Few deals survive a decision, so its cost is mostly the fresh deals' replays, which the rule
    model's fast replay (the fast rule policy, the lean state) keeps within budget; with the rule
    model and a pool of 4 it measured ahead of ``pimc`` (``docs/inference.md``, "The carried
    pool" and "Figures"): that configuration is the spec ``ipimc`` (:func:`pool_player`).

    The constructor's own defaults (no pool, the play phase weighed by the calls) are the
    weighted call, ``ipimc:L:1``: an option, not the spec's default."""

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
        if name is None:  # the spec that builds this player (``ipimc`` and ``ipimc:L`` are pool_player's)
            name = f"ipimc:{level}:{pool}"
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

    def _analyse_call(self, view: SeatView, rng: random.Random) -> PimcDecision:
        """pimc's call valuation on the same samples, weighted by the earlier seats' passes."""
        if not self.weigh_call or view.seat == 0:
            return super()._analyse_call(view, rng)
        n = self.params.call_samples
        v = call_values(view.hand, view.seat, n, rng.getrandbits(64), self._evaluator(2 * n, HAND_SIZE), policy_calls)
        w = temper([call_terms(self.model, r.hands, view.seat, view.seat) for r in v.samples], self.share)
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
        return resample(pool, w, n, rng), w

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


DEFAULT_POOL = 4
"""The pool of the spec ``ipimc`` (times the level's samples): the carried pool ``ipimc:2:4c``,
measured ahead of ``pimc:2`` in paired games (``docs/inference.md``, "Figures")."""


def pool_player(
    level: int, seed: int, pool: int = DEFAULT_POOL, *, carry: bool = True, name: str | None = None
) -> IpimcPlayer:
    """The resampling configuration measured ahead of ``pimc``: ``pool`` times the level's
    samples (2-4), weighed by the rule model's likelihood (``hidden.inference.rule_model``,
    temperature 1) of the other seats' calls and plays, the level's samples drawn from it by
    weight; its call weighted by the earlier passes (the same model's call curve).

    With ``carry`` (the player ``ipimc``, ``ipimc:L``, ``ipimc:L:Pc``) the pool is carried from
    one of its decisions to the next (``hidden.carry``); without, it is drawn afresh at every
    decision (the hint of ``play --infer``: one view's answer, whatever was asked before), which
    gives a pool of the same distribution (``docs/inference.md``, "Why a kept deal is still a
    uniform draw") at a higher cost. Named ``name`` (default ``ipimc:L:Pc``)."""
    if not 2 <= pool <= 4:
        raise ValueError(f"the carried pool needs a pool of 2-4, got {pool}")
    return IpimcPlayer(
        level,
        seed,
        model=rule_model(),
        pool=pool,
        evidence="plays",
        weigh_call=True,
        carry=carry,
        name=name or f"ipimc:{level}:{pool}c",
    )
