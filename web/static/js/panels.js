// The side panels: the hint (at the call: the advice with its chart of outcomes), the tricks so
// far, the review of a finished deal with its graph, and the progress of slow work.

import { playElement } from "./cards.js";
import { _, fmt, ngettext, percent, pgettext, signed, term } from "./i18n.js";
import { button, el, playerName, trickWinText } from "./table.js";

/** Slow work in progress: what, how far (a bar when the total is known) and a Stop button. */
export function workElement(job, label, onCancel) {
  const box = el("div", "work");
  box.setAttribute("role", "status");
  box.append(el("span", "spinner", ""), el("span", "work-label", label));
  const bar = document.createElement("progress");
  if (job && job.progress && job.progress.total) {
    bar.max = job.progress.total;
    bar.value = job.progress.done;
    box.append(bar, el("span", "count", `${job.progress.done}/${job.progress.total}`));
  } else {
    box.append(bar);
  }
  if (onCancel) box.append(button(_("Stop"), onCancel, { cls: "small", id: "btn-stop" }));
  return box;
}

/** The advice at the call: play and pass with their ±, the recommendation, why, the chart. */
export function adviceElement(a) {
  const box = el("div", "advice");
  box.append(el("h3", "", _("Advice: play or pass?")));
  const rows = el("table", "numbers");
  const passWords = a.seat === 2 ? _("a redeal: nobody scores") : _("a defender's share when a later seat calls, 0 on a redeal");
  const body = el("tbody");
  body.append(
    el("tr", a.recommendation === "play" ? "best" : "", el("th", "", term("play")), el("td", "num", `${signed(a.play.mean, 2)} ± ${a.play.stderr.toFixed(2)}`), el("td", "why", _("expected net points as the caller"))),
    el("tr", a.recommendation === "pass" ? "best" : "", el("th", "", term("pass")), el("td", "num", `${signed(a.pass.mean, 2)} ± ${a.pass.stderr.toFixed(2)}`), el("td", "why", passWords)),
  );
  rows.append(body);
  box.append(rows);
  const call = a.recommendation === "play" ? _("PLAY") : _("PASS");
  box.append(el("p", "recommendation", fmt(_("Recommendation: {call} (playing is better with probability {p})"), { call, p: percent(a.p_play_better) })));
  box.append(el("p", "", fmt(_("Reason: {reason}"), { reason: a.reason })));
  if (a.reasons.length) {
    box.append(el("h4", "", _("What decides the hand:")));
    const list = el("ul", "reasons");
    for (const r of a.reasons) list.append(el("li", "", r));
    box.append(list);
  }
  if (a.outcomes.length) box.append(outcomeChart(a));
  const facts = [
    fmt(ngettext("{n} sampled deal", "{n} sampled deals", a.samples), { n: a.samples }),
    fmt(_("seed {seed}"), { seed: a.seed }),
    `${a.seconds.toFixed(1)} s`,
  ];
  box.append(el("p", "facts small", facts.join(" · ")));
  box.append(el("p", "small", fmt(_("The same numbers in a terminal: {command}"), { command: "" }), el("code", "", a.command)));
  return box;
}

/** How calling ends over the sampled deals: one bar a result, the caller's points. */
function outcomeChart(a) {
  const figure = el("figure", "chart outcomes");
  figure.append(el("figcaption", "", fmt(_("How calling ends over the sampled deals (the caller's points); it loses in {p}."), { p: percent(a.p_caller_loses) })));
  const most = Math.max(...a.outcomes.map(([, n]) => n));
  const total = a.outcomes.reduce((s, [, n]) => s + n, 0);
  for (const [points, n] of a.outcomes) {
    const bar = el("span", "chart-bar" + (points < 0 ? " minus" : points > 0 ? " plus" : ""));
    bar.style.width = `${Math.max(3, (100 * n) / most)}%`;
    figure.append(el("div", "chart-row", el("span", "label", signed(points)), el("span", "track", bar), el("span", "count", `${n} (${percent(n / total)})`)));
  }
  return figure;
}

/** The hint in play: every weighed move with its points, ±, the chance the caller loses. */
export function hintElement(game, h, onPick) {
  const box = el("div", "hint");
  const samples = fmt(ngettext("{n} sampled deal", "{n} sampled deals", h.samples), { n: h.samples });
  const head = h.you_are_caller
    ? _("Hint (level {level}, {samples}): your expected points, and how often you lose:")
    : _("Hint (level {level}, {samples}): your expected points (as a defender, half of what the caller loses or minus half of what it wins), and how often the caller loses:");
  box.append(el("h3", "", _("Hint")), el("p", "small", fmt(head, { level: h.level, samples })));
  if (!h.samples) {
    box.append(el("p", "", fmt(_("Hint: {move} is your only legal move."), { move: h.best })));
    return box;
  }
  const table = el("table", "moves");
  const lose = h.you_are_caller ? pgettext("column", "you lose") : pgettext("column", "caller loses");
  table.append(el("thead", "", el("tr", "", el("th", "", pgettext("column", "move")), el("th", "num", pgettext("column", "points")), el("th", "num", "±"), el("th", "num", lose))));
  const body = el("tbody");
  h.moves.forEach((m, i) => {
    const pick = button(m.move, () => onPick(m.move), { cls: "chip" });
    pick.dataset.move = m.move;
    const row = el("tr", i === 0 ? "best" : "", el("td", "", pick), el("td", "num", signed(m.points, 2)), el("td", "num", m.stderr.toFixed(2)), el("td", "num", m.caller_loses === null ? "-" : percent(m.caller_loses)));
    body.append(row);
  });
  table.append(body);
  box.append(table);
  const reasons = new Map();
  for (const { move, why } of h.left_out) reasons.set(why, [...(reasons.get(why) || []), move]);
  for (const [why, moves] of reasons) box.append(el("p", "small", fmt(_("Not weighed: {moves} — {why}."), { moves: moves.join(" "), why })));
  box.append(el("p", "recommendation", fmt(_("Advice: {move}"), { move: h.best })));
  return box;
}

/** The review's marks by play index (?!, ?, ??), to draw on the cards of the tricks. */
export function reviewMarks(review) {
  const marks = new Map();
  if (!review) return marks;
  for (const d of review.decisions) {
    const v = d.verdict || d.luck;
    if (!d.call && v && VERDICTS[v]) marks.set(d.index, VERDICTS[v]);
  }
  return marks;
}

/** The calls and every trick so far: leader, each seat's play, the winner and the fu it won;
 * after a review, your decisions' marks on their cards. */
export function historyElement(game, marks = new Map()) {
  const box = el("div", "history");
  box.append(el("h3", "", _("Tricks")));
  const calls = game.calls.map((c, i) => fmt(_("seat {seat} {call}"), { seat: i, call: term(c) })).join(", ");
  if (calls) box.append(el("p", "small", fmt(_("Calls: {calls}"), { calls })));
  if (!game.tricks.length) {
    box.append(el("p", "small", _("No trick played yet.")));
    return box;
  }
  const table = el("table", "tricks");
  const head = el("tr", "", el("th", "num", pgettext("column", "trick")));
  for (const s of [0, 1, 2]) head.append(el("th", s === game.seat ? "you" : "", playerName(game, s)));
  head.append(el("th", "num", pgettext("column", "fu")));
  table.append(el("thead", "", head));
  const body = el("tbody");
  const olds = game.hands ? game.old_dealt.join("") : game.old;
  game.tricks.forEach((t, i) => {
    const cells = [el("td"), el("td"), el("td")];
    t.plays.forEach((p, k) => {
      const cell = cells[p.seat];
      cell.append(playElement(p.play, { olds }));
      const mark = marks.get(3 * i + k);
      if (mark) {
        const b = el("b", "mark", mark[0]);
        b.title = mark[1]();
        cell.append(b);
      }
      if (k === 0) cell.classList.add("lead");
      if (t.winner === p.seat) cell.classList.add("won");
    });
    body.append(el("tr", "", el("td", "num", i + 1), ...cells, el("td", "num", t.winner === null ? "…" : t.fu_won)));
  });
  table.append(body);
  box.append(table);
  const last = game.tricks[game.tricks.length - 1];
  if (last.winner !== null) box.append(el("p", "small", trickWinText(game, game.tricks.length, last)));
  return box;
}

const VERDICTS = {
  inaccuracy: ["?!", () => _("inaccuracy")],
  mistake: ["?", () => _("mistake")],
  blunder: ["??", () => _("blunder")],
  lucky: ["!?", () => _("lucky")],
  unlucky: ["?", () => _("unlucky")],
};

/** The review: your decisions marked on their cards, and the caller's expected result through the deal. */
export function reviewElement(game, review) {
  const box = el("div", "review");
  box.append(el("h3", "", _("Review of the deal")));
  if (review.graph && review.graph.length) box.append(reviewGraph(review.graph));
  const list = el("ol", "decisions");
  const olds = game.old_dealt ? game.old_dealt.join("") : "";
  for (const d of review.decisions) {
    const mark = d.verdict ? VERDICTS[d.verdict] : d.luck ? VERDICTS[d.luck] : null;
    const item = el("li", d.verdict ? `verdict-${d.verdict}` : d.luck ? `verdict-${d.luck}` : "");
    item.append(d.call ? el("b", "", term(d.played)) : playElement(d.played, { olds }));
    if (mark) item.append(el("b", "mark", mark[0]), el("span", "", mark[1]()));
    const better = d.call ? term(d.best) : d.best;
    const words = d.loss > 0.005 ? fmt(_("{loss} points against {best}"), { loss: signed(-d.loss, 2), best: better }) : _("the best move");
    item.append(el("span", "small", ` ${words}` + (d.error ? ` (± ${d.error.toFixed(2)})` : "")));
    list.append(item);
  }
  box.append(list);
  return box;
}

/** The caller's expected result after each trick: from your view and with every card seen. */
function reviewGraph(points) {
  const w = 320;
  const h = 140;
  const ys = points.flatMap((p) => [p.view, p.exact]).filter((v) => v !== null && v !== undefined);
  const top = Math.max(2, ...ys.map(Math.abs));
  const x = (i) => 20 + (i * (w - 30)) / Math.max(1, points.length - 1);
  const y = (v) => h / 2 - (v / top) * (h / 2 - 10);
  const line = (key) => {
    let d = "";
    let gap = true; // a point without a value breaks the line
    points.forEach((p, i) => {
      if (p[key] === null || p[key] === undefined) {
        gap = true;
        return;
      }
      d += `${gap ? "M" : "L"}${x(i).toFixed(1)},${y(p[key]).toFixed(1)} `;
      gap = false;
    });
    return d.trim() || "M0,0";
  };
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", _("The caller's expected result after each trick"));
  const axis = document.createElementNS(ns, "line");
  Object.entries({ x1: 20, x2: w - 10, y1: h / 2, y2: h / 2, class: "axis" }).forEach(([k, v]) => axis.setAttribute(k, v));
  svg.append(axis);
  for (const [key, cls] of [["view", "view"], ["exact", "exact"]]) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", line(key));
    path.setAttribute("class", cls);
    svg.append(path);
  }
  const figure = el("figure", "chart");
  figure.append(svg, el("figcaption", "", el("span", "key view", _("from your view")), " ", el("span", "key exact", _("every card seen"))));
  return figure;
}

