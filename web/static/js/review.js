// The review of a finished deal (lukfu review's numbers for your seat): the summary first, the
// graph of the caller's expected result through the deal (from your view and with every card
// seen), then each of your decisions on its cards with its mark, its loss ± error, what it cost
// with every card seen, and for a verdict the better move and the line after it.

import { playElement } from "./cards.js";
import { el, svg } from "./dom.js";
import { _, fmt, ngettext, number, pgettext, signed, term } from "./i18n.js";

/** The verdicts' marks, as chess annotates moves (lukfu review's), and the luck words (no mark:
 * luck is no fault). */
export const VERDICTS = {
  inaccuracy: ["?!", () => _("inaccuracy")],
  mistake: ["?", () => _("mistake")],
  blunder: ["??", () => _("blunder")],
  lucky: ["", () => _("lucky")],
  unlucky: ["", () => _("unlucky")],
};

/** The review's verdict marks by play index ([mark, word]), to draw on the cards of the tricks. */
export function reviewMarks(review) {
  const marks = new Map();
  if (!review) return marks;
  for (const d of review.decisions) {
    if (!d.call && d.verdict && VERDICTS[d.verdict]) marks.set(d.index, VERDICTS[d.verdict]);
  }
  return marks;
}

const points = (x) => number(x, 2);
const samplesText = (n) => fmt(ngettext("{n} sampled deal", "{n} sampled deals", n), { n });

/** What the seat did, beside its cards: "lead", "beats", "discard", a claim; a call in words. */
function playPhrase(d) {
  if (d.call) return fmt(_("says {call}"), { call: term(d.played) });
  const words = { lead: pgettext("trick", "lead"), follow: pgettext("trick", "beats"), discard: pgettext("trick", "discard"), claim: term("claim") };
  return words[d.kind] || "";
}

/** The caller's result with every card seen before → after (a call: each choice in its own points). */
function changeWords(d) {
  if (d.call && d.exact) {
    return fmt(_("{play}: {vplay}, {pass_}: {vpass}, in its own points"), { play: term("play"), vplay: signed(d.exact.play), pass_: term("pass"), vpass: signed(d.exact.pass) });
  }
  return fmt(_("the caller's result {before} → {after}"), { before: signed(d.exact_before || 0), after: signed(d.exact_after || 0) });
}

/** One seat's summary: decisions, points lost a decision, verdicts, luck. */
function summaryElement(s) {
  const box = el("div", "review-summary");
  if (!s.decisions) {
    box.append(el("p", "", _("no decision with more than one choice")));
    return box;
  }
  const lost = fmt(_("lost {loss} points a decision from its own view, {cost} with all cards seen"), { loss: points(s.loss_per_decision), cost: points(s.cost_per_decision) });
  box.append(el("p", "", `${fmt(ngettext("{n} decision", "{n} decisions", s.decisions), { n: s.decisions })}; ${lost}`));
  const v = s.verdicts;
  const counts = el("p", "verdict-counts");
  const words = {
    inaccuracy: ngettext("{n} inaccuracy", "{n} inaccuracies", v.inaccuracy),
    mistake: ngettext("{n} mistake", "{n} mistakes", v.mistake),
    blunder: ngettext("{n} blunder", "{n} blunders", v.blunder),
  };
  for (const key of ["inaccuracy", "mistake", "blunder"]) {
    counts.append(el("span", `count verdict-${key}`, fmt(words[key], { n: v[key] }), " ", el("b", "mark", VERDICTS[key][0])));
  }
  box.append(counts);
  box.append(el("p", "small", fmt(_("best move from its own view: {best} of {n}; lucky {lucky}, unlucky {unlucky}"), { best: s.best, n: s.decisions, lucky: s.lucky, unlucky: s.unlucky })));
  return box;
}

/** One decision: where, its cards and mark, the loss from your view, the cost with every card seen, the better line. */
function decisionElement(d, olds, turning) {
  const key = d.verdict || d.luck;
  const item = el("li", "decision" + (key ? ` verdict-${key}` : "") + (turning ? " turning" : ""));
  const where = d.call ? _("The call") : fmt(_("Trick {trick}"), { trick: d.trick });
  const head = el("p", "decision-head", el("span", "where", where), " ");
  if (!d.call && d.played !== "claim") head.append(playElement(d.played, { olds }));
  head.append(" ", el("span", "phrase", playPhrase(d)));
  for (const k of [d.verdict, d.luck]) {
    if (!k) continue;
    if (VERDICTS[k][0]) head.append(" ", el("b", "mark", VERDICTS[k][0]));
    head.append(" ", el("span", "verdict-word", VERDICTS[k][1]()));
  }
  if (turning) head.append(" ", el("span", "turning-badge", _("turning point")));
  item.append(head);
  const best = d.call ? term(d.best) : d.best;
  const view = d.loss > 0.005
    ? fmt(_("From its own view: {loss} ± {se} points below {best} ({n})."), { loss: points(d.loss), se: points(d.error || 0), best, n: samplesText(d.samples) })
    : fmt(_("From its own view: the best move, {mean} points expected ({n})."), { mean: signed(d.mean || 0, 2), n: samplesText(d.samples) });
  item.append(el("p", "small", view));
  const cost = d.cost
    ? fmt(_("With all cards seen it cost {cost} ({change})."), { cost: fmt(ngettext("{n} point", "{n} points", Math.round(d.cost)), { n: Math.round(d.cost) }), change: changeWords(d) })
    : fmt(_("With all cards seen it cost nothing ({change})."), { change: changeWords(d) });
  item.append(el("p", "small", cost));
  if (d.exact_best && d.cost && !d.call) item.append(el("p", "small", fmt(_("Best with all cards seen: {move}."), { move: d.exact_best })));
  const b = d.better;
  if (b) {
    const after = d.call
      ? fmt(_("After {move}, with all cards seen: {value} in its own points."), { move: term(b.move), value: signed(b.exact_after || 0) })
      : fmt(_("After {move}, with all cards seen the caller's result is {value}:"), { move: b.move, value: signed(b.exact_after || 0) });
    item.append(el("p", "small better", after));
    if (b.line && b.line.length && !d.call) {
      const line = el("p", "line");
      b.line.forEach((m, i) => line.append(playElement(m, { olds, small: true }), i < b.line.length - 1 ? " " : ""));
      item.append(line);
    }
  }
  return item;
}

/** The review: summary, graph, and each of your decisions on its cards. */
export function reviewElement(game, review) {
  const box = el("div", "review");
  box.append(el("h3", "", _("Review of the deal")));
  const mine = (review.summary.seats || []).find((s) => s.seat === review.seat);
  if (mine) box.append(summaryElement(mine));
  if (review.graph && review.graph.length) box.append(reviewGraph(review.graph, review.decisions));
  const olds = game.old_dealt ? game.old_dealt.join("") : "";
  const turning = new Set(review.summary.turning_points || []);
  const list = el("ol", "decisions");
  review.decisions.forEach((d, i) => list.append(decisionElement(d, olds, turning.has(i))));
  box.append(list);
  const facts = [review.seconds !== undefined ? fmt(_("{seconds} s"), { seconds: number(review.seconds, 1) }) : ""].filter(Boolean);
  box.append(el("p", "small", fmt(_("The same review in a terminal: {command}"), { command: "" }), el("code", "", review.command || ""), facts.length ? ` · ${facts.join(" · ")}` : ""));
  return box;
}

/** The caller's expected result after each trick: from your view and with every card seen, the
 * tricks of your marked decisions dotted in their colour. */
export function reviewGraph(points, decisions = []) {
  const w = 340;
  const h = 150;
  const left = 34;
  const ys = points.flatMap((p) => [p.view, p.exact]).filter((v) => v !== null && v !== undefined);
  const top = Math.max(2, Math.ceil(Math.max(...ys.map(Math.abs))));
  const x = (i) => left + (i * (w - left - 10)) / Math.max(1, points.length - 1);
  const y = (v) => h / 2 - (v / top) * (h / 2 - 12);
  const node = svg;
  const chart = node("svg", { viewBox: `0 0 ${w} ${h}`, class: "graph", role: "img", "aria-label": _("The caller's result after each trick:") });
  for (const v of [top, 0, -top]) {
    chart.append(node("line", { x1: left, x2: w - 10, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    chart.append(node("text", { x: left - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, signed(v)));
  }
  points.forEach((p, i) => {
    if (points.length <= 13 || i % 2 === 0) chart.append(node("text", { x: x(i), y: h - 1, class: "tick", "text-anchor": "middle" }, String(p.trick)));
  });
  for (const key of ["view", "exact"]) {
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
    if (d) chart.append(node("path", { d: d.trim(), class: key }));
    points.forEach((p, i) => {
      if (p[key] !== null && p[key] !== undefined) chart.append(node("circle", { cx: x(i), cy: y(p[key]), r: 2.2, class: key }));
    });
  }
  for (const d of decisions) {
    const k = d.verdict || d.luck;
    const at = points.findIndex((p) => p.trick === d.trick && p.label !== "start");
    if (!k || d.call || at < 0) continue;
    const v = points[at].exact ?? points[at].view ?? 0;
    chart.append(node("circle", { cx: x(at), cy: y(v), r: 4.5, class: `flag verdict-${k}` }));
  }
  const figure = el("figure", "chart");
  figure.append(el("figcaption", "", _("The caller's result after each trick:")));
  figure.append(chart, el("p", "legend small", el("span", "key view", _("from your view")), " ", el("span", "key exact", _("every card seen"))));
  return figure;
}
