// Which game the bare address (the one lukfu serve prints) returns to. Several tabs may play at
// once and an engine's move may land late in any game, so "the newest unfinished game" alone
// can be another tab's: the browser remembers the game it last played (localStorage, shared by
// its tabs) and returns to that one while it goes on. Pure: the page fetches, this decides.

/** The localStorage key of the game this browser last played. */
export const LAST_GAME = "lukfu.game";

/** A game's id as the server makes them (16 hex digits). */
const GAME_ID = /^[0-9a-f]{16}$/;

/** The id kept under LAST_GAME, or null when there is none or it is not a game's id (a stale or
 * edited value is never sent to the server). */
export function keptGame(raw) {
  return typeof raw === "string" && GAME_ID.test(raw) ? raw : null;
}

/**
 * The game to show, or null for the start screen:
 * - `mine`, the game this browser last played (GET /api/games/ID, null if gone), while it goes on;
 * - else, when `mine` was a deal of a session (`mineSession`, GET /api/sessions/ID) that goes on,
 *   that session's current deal (its next deal may be to come: the table offers it);
 * - else the newest unfinished game or the current deal of the session played last, whichever
 *   changed later (`games`, `sessions`: the first page of each unfinished list, newest first).
 */
export function resumeTarget({ mine = null, mineSession = null, games = [], sessions = [] } = {}) {
  if (mine && mine.phase !== "over") return mine.id;
  if (mine && mine.series && mineSession && mineSession.id === mine.series.id && !mineSession.over) return mineSession.current;
  let id = games.length ? games[0].id : null;
  if (sessions.length && (!games.length || sessions[0].updated >= games[0].updated)) id = sessions[0].current;
  return id;
}
