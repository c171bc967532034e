// Which game the bare address returns to (web/static/js/resume.js): the one this browser played
// last while it goes on, never another tab's game made newer by a late engine move.
import assert from "node:assert/strict";
import { test } from "node:test";

import { keptGame, resumeTarget } from "../../web/static/js/resume.js";

const MINE = "aaaaaaaaaaaaaaaa";
const NEWER = "bbbbbbbbbbbbbbbb";
const DEAL = "cccccccccccccccc";

test("only a game's id is kept: anything else is as if nothing were", () => {
  assert.equal(keptGame(MINE), MINE);
  for (const raw of [null, undefined, "", "../api/info", "AAAAAAAAAAAAAAAA", `${MINE}0`, 12]) assert.equal(keptGame(raw), null);
});

test("the game this browser played last is shown while it goes on, even when another unfinished game is newer", () => {
  const games = [{ id: NEWER, updated: 200 }];
  const sessions = [{ id: "s1", current: DEAL, updated: 300 }];
  assert.equal(resumeTarget({ mine: { id: MINE, phase: "call", series: null }, games, sessions }), MINE);
  assert.equal(resumeTarget({ mine: { id: MINE, phase: "play", series: { id: "s9", deal: 2 } }, games, sessions }), MINE);
});

test("a deal of mine that is over returns to its session's current deal while the session goes on", () => {
  const mine = { id: MINE, phase: "over", series: { id: "s9", deal: 2 } };
  const games = [{ id: NEWER, updated: 200 }];
  assert.equal(resumeTarget({ mine, mineSession: { id: "s9", current: MINE, over: false }, games }), MINE); // deal 3 to come
  assert.equal(resumeTarget({ mine, mineSession: { id: "s9", current: DEAL, over: false }, games }), DEAL); // another tab dealt it
  assert.equal(resumeTarget({ mine, mineSession: { id: "s9", current: MINE, over: true }, games }), NEWER);
  assert.equal(resumeTarget({ mine, mineSession: { id: "s1", current: DEAL, over: false }, games }), NEWER); // not its session
});

test("without a game of mine going on: the newest unfinished game or the session played last, whichever is later", () => {
  const games = [{ id: NEWER, updated: 200 }];
  const sessions = [{ id: "s1", current: DEAL, updated: 300 }];
  for (const mine of [null, { id: MINE, phase: "over", series: null }]) {
    assert.equal(resumeTarget({ mine, games, sessions }), DEAL);
    assert.equal(resumeTarget({ mine, games, sessions: [{ ...sessions[0], updated: 100 }] }), NEWER);
    assert.equal(resumeTarget({ mine, games: [], sessions }), DEAL);
    assert.equal(resumeTarget({ mine, games, sessions: [] }), NEWER);
    assert.equal(resumeTarget({ mine, games: [], sessions: [] }), null); // the start screen
  }
  assert.equal(resumeTarget(), null);
});
