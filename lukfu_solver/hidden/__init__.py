"""Hidden hands: what a seat view proves (CP-SAT constraints), the samplers of consistent
deals (:func:`make_sampler`, the one rule choosing between the exact and the quick one) and the
PIMC core that values choices over them. ortools is imported only here."""

from __future__ import annotations

from typing import Any

__all__ = ["make_sampler"]


def __getattr__(name: str) -> Any:
    """``make_sampler`` on first use, so importing the package stays light."""
    if name == "make_sampler":
        from .quick import make_sampler

        return make_sampler
    raise AttributeError(name)
