// Choosing a move by clicking cards: which cards can be part of a legal move, which legal moves
// the cards chosen so far lead to, and the move they make. Pure functions of the legal moves.

import { formatCards, playCards } from "./cards.js";

/** The legal moves as {text, cards: Set, discard} (claim has no cards). */
export function moveTable(choices) {
  return choices
    .filter((m) => m !== "play" && m !== "pass")
    .map((text) => ({ text, cards: new Set(playCards(text)), discard: text.startsWith("x") }));
}

/** The discard size when the legal moves are discards (a player who cannot beat), else 0. */
export function discardSize(moves) {
  const d = moves.find((m) => m.discard);
  return d ? d.cards.size : 0;
}

/** The moves that hold every chosen card (the ones the choice can still become). */
export function reachable(moves, chosen) {
  return moves.filter((m) => m.cards.size && [...chosen].every((c) => m.cards.has(c)));
}

/** The legal move the chosen cards make exactly, or null. */
export function madeMove(moves, chosen) {
  if (!chosen.size) return null;
  const size = discardSize(moves);
  if (size) return chosen.size === size ? "x" + formatCards([...chosen]) : null;
  const hit = moves.find((m) => m.cards.size === chosen.size && [...chosen].every((c) => m.cards.has(c)));
  return hit ? hit.text : null;
}

/** The cards that are part of some legal move (every card of the hand when discarding). */
export function playable(moves) {
  const out = new Set();
  for (const m of moves) for (const c of m.cards) out.add(c);
  return out;
}

/**
 * The choice after clicking `card`: unchosen if chosen; added when some move (or a discard of
 * the right size) still holds the whole choice; else a fresh choice of that card alone.
 */
export function toggle(moves, chosen, card) {
  const next = new Set(chosen);
  if (next.has(card)) {
    next.delete(card);
    return next;
  }
  const size = discardSize(moves);
  if (size) {
    if (next.size >= size) return size === 1 ? new Set([card]) : next;
    next.add(card);
    return next;
  }
  next.add(card);
  if (reachable(moves, next).length) return next;
  return reachable(moves, new Set([card])).length ? new Set([card]) : new Set();
}

/** The multi-card moves (sets and runs), shown as one-click choices beside the hand. */
export function combos(moves) {
  return moves.filter((m) => !m.discard && m.cards.size > 1).map((m) => m.text);
}
