// The review's graph and marks (web/static/js/review.js): the points a line is drawn through.
import assert from "node:assert/strict";
import { test } from "node:test";

import { drawnPoints, reviewMarks } from "../../web/static/js/review.js";

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
