// The review's graph and marks (web/static/js/review.js): the points a line is drawn through.
import assert from "node:assert/strict";
import { test } from "node:test";

import { drawnPoints, reviewMarks, viewWords } from "../../web/static/js/review.js";

test("a line steps over the points without a value, so it runs on unbroken", () => {
  const graph = [
    { label: "start", trick: 0, view: null, exact: 0.5 },
    { label: "trick", trick: 1, view: 1.25, exact: 1 },
    { label: "trick", trick: 2, view: null, exact: -0.5 },
    { label: "trick", trick: 3, view: 0, exact: null },
  ];
  assert.deepEqual(drawnPoints(graph, "view"), [[1, 1.25], [3, 0]]);
  assert.deepEqual(drawnPoints(graph, "exact"), [[0, 0.5], [1, 1], [2, -0.5]]);
});

test("the verdicts' marks go on the plays they judge; calls and luck carry none", () => {
  const review = {
    decisions: [
      { call: true, index: null, verdict: "mistake" },
      { call: false, index: 4, verdict: "blunder" },
      { call: false, index: 7, verdict: null, luck: "lucky" },
      { call: false, index: 9, verdict: "inaccuracy" },
    ],
  };
  const marks = reviewMarks(review);
  assert.deepEqual([...marks.keys()], [4, 9]);
  assert.equal(marks.get(4)[0], "??");
  assert.equal(marks.get(9)[0], "?!");
  assert.equal(reviewMarks(null).size, 0);
});

test("a loss within its error is never worded as worse than the best", () => {
  const d = { call: false, best: "T4", loss: 0.63, error: 0.63, within_error: true, samples: 24, mean: 3.2 };
  assert.equal(viewWords(d), "From your view: within error of the best, T4 (0.63 ± 0.63 points below it, 24 sampled deals).");
  assert.equal(viewWords({ ...d, loss: 2.5, error: 0.5, within_error: false }), "From your view: 2.50 ± 0.50 points below T4 (24 sampled deals).");
  assert.equal(viewWords({ ...d, loss: 0 }), "From your view: the best move, +3.20 points expected (24 sampled deals).");
  assert.equal(viewWords({ ...d, call: true, best: "pass", loss: 1.2, error: 0.8 }).includes("within error of the best, pass"), true);
});
