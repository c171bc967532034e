// Choosing a move by clicking cards (web/static/js/select.js): pure functions of the legal moves.
import assert from "node:assert/strict";
import { test } from "node:test";

import { combos, discardSize, madeMove, moveTable, playable, reachable, toggle } from "../../web/static/js/select.js";

const LEADS = ["C1", "C3", "S3", "S4", "S5", "S345", "C3S3", "claim"];
const DISCARDS = ["xC1C3", "xC1S4", "xC3S4", "xS4S5", "xC1S5", "xC3S5"];

test("the legal moves become card sets; the calls and a claim hold no card", () => {
  const moves = moveTable(["play", "pass", ...LEADS]);
  assert.deepEqual(moves.map((m) => m.text), LEADS);
  assert.deepEqual([...moves.find((m) => m.text === "S345").cards], ["S3", "S4", "S5"]);
  assert.equal(moves.find((m) => m.text === "claim").cards.size, 0);
  assert.ok(moves.every((m) => !m.discard));
  assert.equal(discardSize(moves), 0);
  assert.equal(discardSize(moveTable(DISCARDS)), 2);
});

test("the cards of some legal move stand out; the sets and runs are one-click chips", () => {
  const moves = moveTable(LEADS);
  assert.deepEqual([...playable(moves)].sort(), ["C1", "C3", "S3", "S4", "S5"]);
  assert.deepEqual(combos(moves), ["S345", "C3S3"]);
  assert.deepEqual(combos(moveTable(DISCARDS)), []);
});

test("a choice reaches the moves that hold all of it, and makes the one it equals", () => {
  const moves = moveTable(LEADS);
  assert.deepEqual(reachable(moves, new Set(["S3"])).map((m) => m.text), ["S3", "S345", "C3S3"]);
  assert.deepEqual(reachable(moves, new Set(["S3", "S4"])).map((m) => m.text), ["S345"]);
  assert.equal(madeMove(moves, new Set()), null);
  assert.equal(madeMove(moves, new Set(["S3"])), "S3");
  assert.equal(madeMove(moves, new Set(["S4", "S3"])), null); // not yet a run
  assert.equal(madeMove(moves, new Set(["S5", "S3", "S4"])), "S345");
  assert.equal(madeMove(moves, new Set(["S3", "C3"])), "C3S3");
});

test("a click adds a card while some move holds the choice, else starts again from it", () => {
  const moves = moveTable(LEADS);
  let chosen = toggle(moves, new Set(), "S3");
  assert.deepEqual([...chosen], ["S3"]);
  chosen = toggle(moves, chosen, "S4");
  assert.deepEqual([...chosen].sort(), ["S3", "S4"]);
  chosen = toggle(moves, chosen, "C1"); // no move holds S3 S4 C1: C1 alone
  assert.deepEqual([...chosen], ["C1"]);
  chosen = toggle(moves, chosen, "C1"); // a second click drops it
  assert.equal(chosen.size, 0);
  assert.equal(toggle(moves, new Set(), "T9").size, 0); // a card of no legal move
});

test("a discard is any cards of its size, canonical; a full choice takes no more", () => {
  const moves = moveTable(DISCARDS);
  let chosen = toggle(moves, new Set(), "S5");
  chosen = toggle(moves, chosen, "C1");
  assert.equal(madeMove(moves, chosen), "xC1S5");
  assert.deepEqual([...toggle(moves, chosen, "T9")].sort(), ["C1", "S5"]);
  const single = moveTable(["xC1", "xT9"]);
  assert.deepEqual([...toggle(single, new Set(["C1"]), "T9")], ["T9"]); // one card: the click swaps it
});
