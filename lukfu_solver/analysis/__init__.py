"""Analysis for a player over the PIMC core (``hidden.pimc``, ``docs/pimc.md``): expected points of
every move of a seat view (``moves``), call/pass advice (``advice``), a dealt hand's report
(``hand``), the in-game hint (``hint``) and the shared defaults (``defaults``)."""
