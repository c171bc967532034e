// The table's one state (web/static/js/state.js): the server's game and this page's choices.
import assert from "node:assert/strict";
import { test } from "node:test";

import { lastTrick, nextDeal, seriesStale, setGame, tableState, trickJustWon } from "../../web/static/js/state.js";

const game = (over = {}) => ({ id: "g1", answers: 3, phase: "play", tricks: [], ...over });

test("a move drops the choice and a hint of an older decision (its job to stop)", () => {
  const state = tableState();
  assert.deepEqual(setGame(state, game()), []);
  state.chosen = new Set(["C1"]);
  state.hint = { job: { id: "h" }, result: null, answers: 3 };
  assert.deepEqual(setGame(state, game()), []); // the same answers: nothing moved
  assert.deepEqual([...state.chosen], ["C1"]);
  assert.deepEqual(setGame(state, game({ answers: 4 })), [{ id: "h" }]);
  assert.equal(state.chosen.size, 0);
  assert.equal(state.hint, null);
});

test("another game drops the review and its tab; the end of a deal closes the hint's tab", () => {
  const state = tableState();
  setGame(state, game());
  state.review = { job: { id: "r" }, result: null };
  state.tab = "review";
  assert.deepEqual(setGame(state, game({ id: "g2" })), [{ id: "r" }]);
  assert.equal(state.review, null);
  assert.equal(state.tab, "tricks");
  state.tab = "hint";
  setGame(state, game({ id: "g2", phase: "over" }));
  assert.equal(state.tab, "tricks");
});

test("the trick on the table, and whether it was just won", () => {
  assert.equal(lastTrick(game()), null);
  const open = { leader: 0, plays: [], best: 0, winner: null, fu_won: 0 };
  const won = { ...open, winner: 1, fu_won: 1 };
  assert.equal(trickJustWon(game({ tricks: [open] })), false);
  assert.equal(trickJustWon(game({ tricks: [won] })), true);
  assert.equal(trickJustWon(game({ tricks: [won], phase: "over" })), false);
});

test("a pace says how long an engine's play and a won trick stay; wait keeps the trick for you", async () => {
  const { PACES, pauses } = await import("../../web/static/js/state.js");
  assert.equal(pauses("wait").trick, null);
  assert.equal(pauses("nonsense").trick, null);
  for (const name of ["fast", "normal", "slow"]) assert.ok(pauses(name).trick > pauses(name).move);
  assert.ok(PACES.fast.move < PACES.normal.move && PACES.normal.move < PACES.slow.move);
  assert.ok(PACES.wait.move >= 800); // an engine's play is shown long enough to read
  assert.deepEqual(pauses("fast", 100), { move: 100, trick: 200 });
  assert.deepEqual(pauses("wait", 100), { move: 100, trick: null });
});

test("a deal of a session: its summary asked for when missing, another's, or when the deal ends", () => {
  const state = tableState();
  const deal = (over = {}) => game({ series: { id: "s1", deal: 1 }, ...over });
  setGame(state, deal());
  assert.equal(seriesStale(state, null, deal()), true); // none held yet
  state.series = { id: "s1", deals: 2, dealt: 1, played: 0 };
  assert.equal(seriesStale(state, deal(), deal({ answers: 4 })), false); // a move: the score stands
  assert.equal(seriesStale(state, deal(), deal({ phase: "over" })), true); // the deal ended
  assert.equal(seriesStale(state, deal({ phase: "over" }), deal({ phase: "over" })), false);
  assert.equal(seriesStale(state, deal(), deal({ series: { id: "s1", deal: 2 } })), true); // a deal it has not counted
  assert.equal(seriesStale(state, null, game()), false); // a game alone
  setGame(state, deal({ phase: "over" }));
  assert.equal(nextDeal(state), 2);
  setGame(state, deal({ phase: "over", series: { id: "s1", deal: 2 } }));
  assert.equal(nextDeal(state), null); // the last deal: the summary comes next
  setGame(state, deal({ series: { id: "s2", deal: 1 } }));
  assert.equal(state.series, null); // another session's summary is dropped
  setGame(state, game());
  assert.equal(nextDeal(state), null);
});
