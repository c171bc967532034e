"""The search's switches: each technique that can be turned off, defined once and read by both
searches (``docs/search.md``, "Switches").

The reference search reads them at run time (``switches.CALLER_AHEAD``), so a test may turn one
off for the reference alone with ``monkeypatch.setattr``; the compiled kernel imports them, and
numba compiles a module's globals as constants: to change a switch for the kernel, change it
here (the kernel's cache is named for its sources and this file, so it compiles anew). Both
searches must be switched alike, or their node counts part (``tests/test_kernel.py``).
"""

from __future__ import annotations

R7_AT_LEAD = True
"""At a non-caller's lead holding no set and no run, ``value_bounds`` takes the least of the claim's
value and the single-trick bounds after each single R7 allows (the R7 one-trick bound)."""

R7_AHEAD = True
"""Where a single-trick playout ends at such a lead (three cards a hand or more), that lead is
bounded the same way, one trick deeper (the R7 look-ahead)."""

CALLER_AHEAD = True
"""After the table probe at the caller's lead, the best single-trick lower bound over the singles
it may lead that a non-caller can beat, up to beta (the caller's look-ahead)."""

CALLER_AHEAD_SKIP = True
"""The caller's look-ahead leaves out the singles every beater of which keeps a set or a run."""

COALITION_AHEAD = True
"""After the table probe at a non-caller's lead holding a set or a run, the least single-trick upper
bound over the singles R7 lets it lead, down to alpha (the coalition's look-ahead)."""

COALITION_AHEAD_SKIP = True
"""The coalition's look-ahead leaves out the singles the caller can beat with a card the partner
cannot beat, while three cards a hand or more are left (they cannot tighten the node)."""

DISCARD_AHEAD = True
"""After the table probe at a non-caller's discard in a trick whose winner is certain, the winner's
look-ahead at its next lead, played out once for every discard of the seats still to play."""

DISCARD_CALLER = True
"""In that look-ahead, where a set or a run was led and the caller plays last, the caller's own
discard is chosen (the best over its discards) rather than taken as unknown."""

TT_MIN_CARDS = (0, 0, 8)
"""By the cards already played in the trick (0, 1 or 2): a node whose seat to move holds fewer cards
than this neither probes nor stores the table (except under the last player's key)."""

SWITCHES = (
    "R7_AT_LEAD",
    "R7_AHEAD",
    "CALLER_AHEAD",
    "CALLER_AHEAD_SKIP",
    "COALITION_AHEAD",
    "COALITION_AHEAD_SKIP",
    "DISCARD_AHEAD",
    "DISCARD_CALLER",
    "TT_MIN_CARDS",
)
"""Every switch's name (``tests/test_architecture.py`` checks that no other module assigns one)."""
