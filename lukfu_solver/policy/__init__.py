"""Policies that need only the rules: what a seat knows as card masks (``facts``), the rule
player (``rule``, with its fast twin for the opponent model's replays, ``rule_fast``) and every
calling policy with its thresholds and curves (``calling``).

This floor stands between the positions and views (which it reads) and ``hidden/`` (whose
opponent model replays the rule player), and it never imports the search.
"""
