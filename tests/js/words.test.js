// The game's words (web/static/js/words.js) and the cards' notation (cards.js): pure functions of
// the server's facts, in English (the catalogue the page starts with).
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatCards, parseCards, playCards } from "../../web/static/js/cards.js";
import { againstText, callsText, claimText, counted, moveWord, moveWords, outcomeText, roleWord, scoreText, seatNames, shownName, trickWinText, who, worthText } from "../../web/static/js/words.js";

test("cards parse from and format to the notation, in suit and rank order", () => {
  assert.deepEqual(parseCards("C135S79"), ["C1", "C3", "C5", "S7", "S9"]);
  assert.deepEqual(playCards("xC2M4"), ["C2", "M4"]);
  assert.deepEqual(playCards("claim"), []);
  assert.equal(formatCards(["S9", "C3", "T1", "C1"]), "C13S9T1");
});

test("players are named as lukfu names them: you, a strength and its letter, an engine's spec", () => {
  assert.equal(shownName("medium A"), "medium A");
  assert.equal(shownName("pimc:2 B"), "pimc:2 B");
  assert.deepEqual(seatNames(["you", "easy A", "strong B"], 0), ["you", "easy A", "strong B"]);
  assert.deepEqual(seatNames(["ann", "bob", "cy"]), ["ann", "bob", "cy"]);
  assert.deepEqual(seatNames(null), ["seat 0", "seat 1", "seat 2"]);
  assert.equal(who(["you", "easy A", "easy B"], 2, 0), "seat 2 (easy B)");
  assert.equal(who(["you", "easy A", "easy B"], 0, 0), "you");
});

test("a claim's words take its total, its worth and who pays from the server (R16–R17)", () => {
  // the worth is the server's (rules.worth): the page says it, it does not work it out
  assert.equal(worthText({ points: 2, paid_by: "others" }), "worth 2 points from each of the other two");
  assert.equal(worthText({ points: 1, paid_by: "caller" }), "worth 1 point, paid twice by the caller");
  assert.equal(worthText({ points: 7, paid_by: "caller" }), "worth 7 points, paid twice by the caller");
  const names = ["you", "easy A", "easy B"];
  const claim = { seat: 1, fu: 4, old: "C1S9", total: 6, worth: { points: 1, paid_by: "others", net: [-1, 2, -1] } };
  assert.equal(claimText(claim, 2, names, 0), "Seat 1 (easy A) claims: 4 fu won + 2 Old cards shown = 6, worth 1 point from each of the other two. The deal ends.");
  const mine = { ...claim, seat: 0, worth: { points: 1, paid_by: "caller", net: [2, -2, 0] } };
  assert.match(claimText(mine, 2, names, 0), /^You claim: 4 fu won \+ 2 Old cards shown = 6, worth 1 point, paid twice/);
  assert.equal(counted(1, "old"), "1 Old card");
});

test("whom you played and the running score, in the session's order", () => {
  assert.equal(againstText(["easy"]), "easy");
  assert.equal(againstText(["easy", "strong"]), "easy + strong");
  assert.equal(againstText(["pimc:2"]), "pimc:2");
  assert.equal(scoreText(["you", "easy A", "easy B"], [3, -1, -2]), "you +3 · easy A -1 · easy B -2");
  assert.equal(scoreText(["you", "medium", "strong"], [0, 0, 0]), "you 0 · medium 0 · strong 0");
});

test("a trick's winner and its fu are read from the trick, never worked out", () => {
  const names = ["you", "easy A", "easy B"];
  const trick = { leader: 0, plays: [], best: 1, winner: 2, fu_won: 3 }; // winner as given
  assert.equal(trickWinText(4, trick, names, 0), "→ Seat 2 (easy B) wins trick 4 (+3 fu).");
  assert.equal(trickWinText(4, { ...trick, winner: 0 }, names, 0), "→ You win trick 4 (+3 fu).");
  assert.deepEqual(["lead", "beat", "discard", "claim"].map(roleWord), ["lead", "beats", "discard", "claim"]);
});

test("the calls, the steps of a replay and the end of a deal, by the seats' names", () => {
  const names = ["you", "easy A", "easy B"];
  assert.equal(callsText(["pass", "play"], names), "you: pass, easy A: play");
  assert.equal(callsText([], names), "");
  assert.equal(outcomeText({ winner: null }, names, 0), "void: the hands ran out and nobody won six fu, so nobody scores");
  assert.equal(outcomeText({ winner: 1, how: "claim", total: 7 }, names, 0), "seat 1 (easy A) wins by claim with a total of 7");
  assert.equal(outcomeText({ winner: 0, how: "fu", total: 6 }, names, 0), "you win with 6 fu when the hands ran out");
  const lead = { seat: 2, play: "S7", shape: "single", role: "lead" };
  assert.equal(moveWords(lead, names), "seat 2 (easy B) leads S7");
  assert.equal(moveWords({ ...lead, play: "xC2M4", shape: "discard", role: "discard" }, names), "seat 2 (easy B) discards C2M4 face down");
  assert.equal(moveWords({ ...lead, role: "beat" }, names), "seat 2 (easy B) beats with S7");
  assert.equal(moveWords(null, names), "The deal as dealt, before the first lead.");
  assert.deepEqual(["claim", "pass", "S345"].map(moveWord), ["claim", "pass", "S345"]);
});
