// The one state of a table: the server's game as it last answered, and what is only this page's
// (the cards you have chosen, the engine's work in progress, the hint, the review, the open tab).
// The screens are drawn from it and nothing else; it changes only through these functions, which
// touch no page, so they run under `node --test` too.

/** A table's state before any game is open. */
export function tableState() {
  return {
    game: null, // the server's game state (GET /api/games/ID), read-only
    chosen: new Set(), // the cards chosen in your hand
    engine: null, // {seat, job}: the engine's move being computed
    hint: null, // {job, result, answers}: the hint (at the call: the advice) for one decision
    review: null, // {job, result, error}: the review of the finished deal
    tab: "tricks", // the side panel's tab
    fresh: false, // the last play just arrived (drawn with a short animation)
    waiting: false, // a won trick stays on the table until you go on (the pace "wait")
    reviewing: false, // the review's page is open instead of the table
    series: null, // the session of deals the game is a deal of (GET /api/sessions/ID), or null
  };
}

/** The paces a table can keep: how long each engine play stays before the next (ms), and how long
 * a won trick stays (null: until you go on). */
export const PACES = {
  wait: { move: 900, trick: null },
  slow: { move: 1600, trick: 5000 },
  normal: { move: 900, trick: 2500 },
  fast: { move: 400, trick: 1200 },
};

/** The pauses of `pace` (a name of PACES, "wait" when unknown); `base` (ms, a test's quick
 * table) replaces the move's pause, a trick's then stays twice as long. */
export function pauses(pace, base = null) {
  const p = PACES[pace] || PACES.wait;
  if (base === null || !Number.isFinite(base)) return p;
  return { move: base, trick: p.trick === null ? null : 2 * base };
}

/** Take the server's `game` into `state`; a new game drops the hint, the review and the tab on
 * it, a move drops the choice and a hint of an older decision. Returns what must be stopped: the
 * jobs of the hint and review dropped, still running. */
export function setGame(state, game) {
  const old = state.game;
  const stop = [];
  const moved = !old || game.answers !== old.answers || game.id !== old.id;
  if (old && game.id !== old.id) {
    if (state.hint && !state.hint.result) stop.push(state.hint.job);
    if (state.review && state.review.job && !state.review.result) stop.push(state.review.job);
    state.hint = null;
    state.review = null;
    if (state.tab === "review") state.tab = "tricks";
  }
  if (!game.series || (state.series && state.series.id !== game.series.id)) state.series = null;
  state.game = game;
  if (game.phase === "over" && state.tab === "hint") state.tab = "tricks"; // no hint after the end
  if (moved) {
    state.chosen = new Set();
    if (state.hint && state.hint.answers !== game.answers) {
      if (!state.hint.result) stop.push(state.hint.job);
      state.hint = null;
    }
  }
  return stop.filter(Boolean);
}

/** The trick on the table now (the last one, open or just won), or null before the first lead. */
export function lastTrick(game) {
  return game && game.tricks.length ? game.tricks[game.tricks.length - 1] : null;
}

/** True when the last trick is complete and the deal goes on: the moment a player pauses on. */
export function trickJustWon(game) {
  const last = lastTrick(game);
  return Boolean(last && last.winner !== null && game.phase === "play");
}

/** Whether the session of deals of `game` must be asked for (again): none held yet for it, its
 * deal has just ended (the score moved), or a deal it has not counted yet. `before` is the game
 * the page held before (null: none). */
export function seriesStale(state, before, game) {
  if (!game.series) return false;
  const held = state.series;
  if (!held || held.id !== game.series.id || held.dealt < game.series.deal) return true;
  return game.phase === "over" && (!before || before.id !== game.id || before.phase !== "over");
}

/** The deal after this one in its session (its number), or null: the last deal, or a game alone. */
export function nextDeal(state) {
  const g = state.game;
  if (!g || !g.series || !state.series || g.phase !== "over") return null;
  return g.series.deal < state.series.deals ? g.series.deal + 1 : null;
}
