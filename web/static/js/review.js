// The review of a finished deal as a page of its own (lukfu review's numbers for your seat): the
// summary beside the graph of your expected points through the deal (from your view and with
// every card seen), then each of your decisions on its cards with its mark, what it lost from your
// view ± error, what it cost with every card seen, and for a verdict the better move and the line
// after it, trick by trick with the seats' names and each trick's winner.

import { parseCards, playElement } from "./cards.js";
import { el, svg } from "./dom.js";
import { _, fmt, ngettext, number, pgettext, signed, term } from "./i18n.js";
import { claimText, moveWord, roleWord } from "./words.js";

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

/** What you did, beside your cards: "lead", "beats", "discard", a claim; a call in words. */
function playPhrase(d) {
  if (d.call) return fmt(_("you say {call}"), { call: term(d.played) });
  const words = { lead: pgettext("trick", "lead"), follow: pgettext("trick", "beats"), discard: pgettext("trick", "discard"), claim: term("claim") };
  return words[d.kind] || "";
}

/** The caller's result with every card seen before → after (a call: each choice in your points). */
function changeWords(d) {
  if (d.call && d.exact) {
    return fmt(_("{play}: {vplay}, {pass_}: {vpass}, in your points"), { play: term("play"), vplay: signed(d.exact.play), pass_: term("pass"), vpass: signed(d.exact.pass) });
  }
  return fmt(_("the caller's result {before} → {after}"), { before: signed(d.exact_before || 0), after: signed(d.exact_after || 0) });
}

/** Your summary: decisions, points lost a decision, verdicts, luck. */
function summaryElement(s) {
  const box = el("div", "review-summary");
  if (!s.decisions) {
    box.append(el("p", "", _("You had no decision with more than one choice.")));
    return box;
  }
  box.append(el("p", "big", fmt(ngettext("{n} decision of yours", "{n} decisions of yours", s.decisions), { n: s.decisions })));
  box.append(el("p", "", fmt(_("You lost {loss} points a decision from your view, {cost} with all cards seen."), { loss: points(s.loss_per_decision), cost: points(s.cost_per_decision) })));
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
  const within = s.within_error ?? s.best;
  box.append(el("p", "", fmt(_("Within error of your best move from your view: {within} of {n} (the best itself: {best}); lucky {lucky}, unlucky {unlucky}."), { within, best: s.best, n: s.decisions, lucky: s.lucky, unlucky: s.unlucky })));
  return box;
}

/** The better line, trick by trick as the terminal tells it: who led, beat and discarded (the
 * better move marked), who won the trick and its fu; a claim that ends it. */
function lineElement(better, names, you, olds) {
  const table = el("table", "line");
  const body = el("tbody");
  better.tricks.forEach((t, k) => {
    const row = el("tr", "", el("th", "", fmt(_("Trick {trick}"), { trick: t.number })));
    t.plays.forEach((p, i) => {
      const cell = el("td", i === t.best && t.winner !== null ? "won" : "");
      if (k === 0 && i === better.before) cell.classList.add("better-move");
      if (k === 0 && i < better.before) cell.classList.add("before");
      cell.append(el("span", "who", `${names[p.seat]} · ${roleWord(p.role)}`), playElement(p.play, { olds, small: true }));
      row.append(cell);
    });
    for (let i = t.plays.length; i < 3; i++) row.append(el("td"));
    const won = t.winner === null ? "" : fmt(_("→ {player} (+{won} fu)"), { player: names[t.winner], won: t.fu_won });
    row.append(el("td", "winner", won));
    body.append(row);
  });
  table.append(body);
  const box = el("div", "line-box", table);
  if (better.claim) box.append(el("p", "small", claimText(better.claim, parseCards(better.claim.old).length, names, you)));
  return box;
}

/** Your move from your view: the best, within error of the best (never called worse), or how far
 * below it ± the error, as the terminal's review says it. */
export function viewWords(d) {
  const fields = { loss: points(d.loss), se: points(d.error || 0), best: moveWord(d.best), n: samplesText(d.samples) };
  if (!d.loss) return fmt(_("From your view: the best move, {mean} points expected ({n})."), { mean: signed(d.mean || 0, 2), n: fields.n });
  if (d.within_error) return fmt(_("From your view: within error of the best, {best} ({loss} ± {se} points below it, {n})."), fields);
  return fmt(_("From your view: {loss} ± {se} points below {best} ({n})."), fields);
}

/** One decision: where, its cards and mark, the loss from your view, the cost with every card
 * seen, the move that does better with every card seen and the line after it. */
function decisionElement(d, ctx, turning) {
  const key = d.verdict || d.luck;
  const item = el("li", "decision" + (key ? ` verdict-${key}` : "") + (turning ? " turning" : ""));
  const where = d.call ? _("The call") : fmt(_("Trick {trick}"), { trick: d.trick });
  const head = el("p", "decision-head", el("span", "where", where), " ");
  if (!d.call && d.played !== "claim") head.append(playElement(d.played, { olds: ctx.olds }));
  head.append(" ", el("span", "phrase", playPhrase(d)));
  for (const k of [d.verdict, d.luck]) {
    if (!k) continue;
    if (VERDICTS[k][0]) head.append(" ", el("b", "mark", VERDICTS[k][0]));
    head.append(" ", el("span", "verdict-word", VERDICTS[k][1]()));
  }
  if (turning) head.append(" ", el("span", "turning-badge", _("turning point")));
  item.append(head);
  item.append(el("p", "", viewWords(d)));
  const cost = d.cost
    ? fmt(_("With all cards seen it cost you {cost} ({change})."), { cost: fmt(ngettext("{n} point", "{n} points", Math.round(d.cost)), { n: Math.round(d.cost) }), change: changeWords(d) })
    : fmt(_("With all cards seen it cost you nothing ({change})."), { change: changeWords(d) });
  item.append(el("p", "", cost));
  const b = d.better;
  if (b) {
    const after = d.call
      ? fmt(_("Better with all cards seen: {move}, {value} in your points."), { move: term(b.move), value: signed(b.exact_after || 0) })
      : fmt(_("Better with all cards seen: {move}; after it the caller's result is {value}:"), { move: moveWord(b.move), value: signed(b.exact_after || 0) });
    item.append(el("p", "better", after));
    if (b.tricks && b.tricks.length) item.append(lineElement(b, ctx.names, ctx.you, ctx.olds));
  }
  return item;
}

/** The review: your summary beside the graph, then each of your decisions on its cards. */
export function reviewElement(game, review, names) {
  const box = el("div", "review");
  const mine = (review.summary.seats || []).find((s) => s.seat === review.seat);
  const top = el("div", "review-top");
  if (mine) top.append(summaryElement(mine));
  if (review.hint_words) top.append(el("p", "small hint-words", review.hint_words));
  const you = review.seat;
  if (review.graph && review.graph.length) top.append(reviewGraph(review.graph, review.decisions, you === review.caller));
  box.append(top);
  const ctx = { names, you, caller: review.caller, olds: game.old_dealt ? game.old_dealt.join("") : "" };
  const turning = new Set(review.summary.turning_points || []);
  box.append(el("h3", "", _("Your decisions")));
  const list = el("ol", "decisions");
  review.decisions.forEach((d, i) => list.append(decisionElement(d, ctx, turning.has(i))));
  box.append(list);
  const facts = review.seconds !== undefined ? ` · ${fmt(_("{seconds} s"), { seconds: number(review.seconds, 1) })}` : "";
  box.append(el("p", "small", fmt(_("The same review in a terminal: {command}"), { command: "" }), el("code", "", review.command || ""), facts));
  return box;
}

/** The points to draw of a line: those with a value (a point without one is stepped over, so
 * the line runs on unbroken). */
export function drawnPoints(graph, key) {
  return graph.map((p, i) => [i, p[key]]).filter(([, v]) => v !== null && v !== undefined);
}

/** Your expected points after each trick, from your view and with every card seen, the tricks of
 * your marked decisions circled; the axes labelled (tricks; your points). */
export function reviewGraph(graph, decisions, asCaller) {
  const narrow = window.innerWidth < 600; // a phone: fewer units across, so the words stay readable
  const w = narrow ? 360 : 560;
  const h = narrow ? 210 : 230;
  const left = 48;
  const right = 12;
  const top = 12;
  const bottom = 40;
  const ys = graph.flatMap((p) => [p.view, p.exact]).filter((v) => v !== null && v !== undefined);
  const most = Math.max(2, Math.ceil(Math.max(...ys.map(Math.abs))));
  const x = (i) => left + (i * (w - left - right)) / Math.max(1, graph.length - 1);
  const y = (v) => top + ((most - v) / (2 * most)) * (h - top - bottom);
  const label = asCaller ? _("Your expected points after each trick (you are the caller):") : _("Your expected points after each trick (as a non-caller: minus half the caller's result):");
  const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "graph", role: "img", "aria-label": label });
  for (const v of [most, most / 2, 0, -most / 2, -most]) {
    chart.append(svg("line", { x1: left, x2: w - right, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    chart.append(svg("text", { x: left - 5, y: y(v) + 4, class: "tick", "text-anchor": "end" }, signed(v, Number.isInteger(v) ? 0 : 1)));
  }
  graph.forEach((p, i) => {
    const text = p.label === "start" ? "0" : String(p.trick);
    if (graph.length <= 14 || i % 2 === 0) chart.append(svg("text", { x: x(i), y: h - bottom + 16, class: "tick", "text-anchor": "middle" }, text));
  });
  chart.append(svg("text", { x: (left + w - right) / 2, y: h - 4, class: "axis-label", "text-anchor": "middle" }, _("after trick")));
  chart.append(svg("text", { x: 12, y: (top + h - bottom) / 2, class: "axis-label", "text-anchor": "middle", transform: `rotate(-90 12 ${(top + h - bottom) / 2})` }, _("your points")));
  for (const key of ["exact", "view"]) {
    const drawn = drawnPoints(graph, key);
    if (drawn.length > 1) chart.append(svg("path", { d: drawn.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: key }));
    for (const [i, v] of drawn) chart.append(svg("circle", { cx: x(i), cy: y(v), r: 3, class: key }));
  }
  for (const d of decisions) {
    const k = d.verdict || d.luck;
    const at = graph.findIndex((p) => p.trick === d.trick && p.label !== "start");
    if (!k || d.call || at < 0) continue;
    const v = graph[at].exact ?? graph[at].view ?? 0;
    chart.append(svg("circle", { cx: x(at), cy: y(v), r: 6, class: `flag verdict-${k}` }));
  }
  const figure = el("figure", "chart review-graph");
  figure.append(el("figcaption", "", label));
  figure.append(chart, el("p", "legend small", el("span", "key view", _("from your view")), " ", el("span", "key exact", _("every card seen"))));
  return figure;
}

/** A review's page head: whose decisions, and in what role. */
export function reviewHead(game, names) {
  const role = game.caller === game.seat ? term("caller") : term("non-caller");
  const fields = { seed: game.seed, seat: game.seat, role, a: names[(game.seat + 1) % 3], b: names[(game.seat + 2) % 3] };
  return el("p", "small", fmt(_("Deal {seed}: you in seat {seat} ({role}); opponents: {a}, {b}."), fields));
}
