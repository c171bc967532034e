"""Analysis for a player: expected points of every move of a seat view, and call/pass advice."""
