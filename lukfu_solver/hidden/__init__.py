"""Hidden hands: what a seat view proves (CP-SAT constraints), the samplers of consistent
deals, and the PIMC core that values choices over them. ortools is imported only here."""
