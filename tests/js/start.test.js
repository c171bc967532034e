// The start screen's choices and your record's chart scale (web/static/js/start.js, standing.js):
// pure functions of the server's offer and figures.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chartSpan } from "../../web/static/js/standing.js";
import { EVENING, startChoices, startRequest } from "../../web/static/js/start.js";

const info = { strengths: ["easy", "medium", "strong"], opponents: ["easy", "medium", "strong", "rule", "pimc"], levels: [1, 2, 3, 4, 5], default_level: 3 };

test("the start screen opens on the server's first strength, or on the choices made before if the server still offers them", () => {
  assert.deepEqual(startChoices(info), { strength: "easy", engine: "", seat: "", evening: false, deals: EVENING.deals, level: 3 });
  const last = { strength: "strong", engine: "pimc", seat: "2", evening: true, deals: 7, level: 5 };
  assert.deepEqual(startChoices(info, last), last);
  const odd = startChoices(info, { strength: "hard", engine: "easy", seat: "9", deals: 1000, level: 9 });
  assert.deepEqual(odd, { strength: "easy", engine: "", seat: "", evening: false, deals: EVENING.deals, level: 3 });
});

test("one deal is a game's request; an evening names its deals; an engine stands for the strength", () => {
  const c = startChoices(info, { strength: "medium", seat: "0" });
  assert.deepEqual(startRequest(c), { options: { opponents: ["medium"], level: 3, seat: 0 }, deals: 1 });
  assert.deepEqual(startRequest({ ...c, evening: true, deals: 4 }, "74"), { options: { opponents: ["medium"], level: 3, seat: 0, seed: 74 }, deals: 4 });
  assert.deepEqual(startRequest({ ...c, seat: "", engine: "rule" }).options, { opponents: ["rule"], level: 3 });
});

test("your record's chart spans the farthest mean or interval end, at least one point", () => {
  assert.equal(chartSpan([]), 1);
  assert.equal(chartSpan([{ mean: -0.4, ci95: null }]), 1);
  assert.equal(chartSpan([{ mean: -2.08, ci95: [-3.36, -0.8] }, { mean: 1.2, ci95: null }]), 4);
});
