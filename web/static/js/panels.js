// The side panels: the hint (at the call: the advice with its chart of outcomes) and the tricks
// so far with the review's marks (the review itself: review.js).

import { playElement } from "./cards.js";
import { button, el } from "./dom.js";
import { _, fmt, ngettext, number, percent, pgettext, seconds, signed, term } from "./i18n.js";
import { callsText, moveWord, seatNames, trickWinText } from "./words.js";

/** The advice at the call (`lukfu advise --json`'s object, its reasons said in `a.said`): play
 * and pass with their ±, the recommendation, why, the chart. */
export function adviceElement(a) {
  const box = el("div", "advice");
  box.append(el("h3", "", _("Advice: play or pass?")));
  const call = a.recommendation === "play" ? _("PLAY") : _("PASS");
  box.append(el("p", "recommendation", fmt(_("Recommendation: {call} (playing is better with probability {p})"), { call, p: percent(a.p_play_better) })));
  const rows = el("table", "numbers");
  const passWords = a.seat === 2 ? _("a redeal: nobody scores") : _("a defender's share when a later seat calls, 0 on a redeal");
  const body = el("tbody");
  body.append(
    el("tr", a.recommendation === "play" ? "best" : "", el("th", "", term("play")), el("td", "num", `${signed(a.play.mean, 2)} ± ${number(a.play.stderr, 2)}`), el("td", "why", _("expected net points as the caller"))),
    el("tr", a.recommendation === "pass" ? "best" : "", el("th", "", term("pass")), el("td", "num", `${signed(a.pass.mean, 2)} ± ${number(a.pass.stderr, 2)}`), el("td", "why", passWords)),
  );
  rows.append(body);
  box.append(rows);
  if (a.against && a.uncalibrated) {
    box.append(el("p", "small", fmt(_("Against {against} opponents: what such deals bring against them (the deals played out with every card in view gave play {play}, pass {pass_}: perfect opponents)"), { against: pgettext("strength", a.against), play: signed(a.uncalibrated.play, 2), pass_: signed(a.uncalibrated.pass, 2) })));
  }
  box.append(el("p", "", fmt(_("Reason: {reason}"), { reason: a.said.reason })));
  if (a.said.reasons.length) {
    box.append(el("h4", "", _("What decides the hand:")));
    const list = el("ul", "reasons");
    for (const r of a.said.reasons) list.append(el("li", "", r));
    box.append(list);
  }
  const outcomes = Object.entries(a.outcomes).map(([points, n]) => [Number(points), n]).sort((x, y) => x[0] - y[0]);
  if (outcomes.length) box.append(outcomeChart(a, outcomes));
  const facts = [
    fmt(ngettext("{n} sampled deal", "{n} sampled deals", a.samples), { n: a.samples }),
    fmt(_("seed {seed}"), { seed: a.seed }),
    seconds(a.seconds),
  ];
  box.append(el("p", "facts small", facts.join(" · ")));
  const asks = fmt(_("Hint: what `{command}` answers (it thinks up to {seconds}):"), { command: "\u0000", seconds: seconds(a.budget_seconds || 0) });
  const [before, after] = asks.split("\u0000");
  box.append(el("p", "small command", before.replace(/`$/, ""), el("code", "", a.command), after.replace(/^`/, "")));
  return box;
}

/** How calling ends over the sampled deals: one bar a result (`outcomes`: [points, deals],
 * fewest points first), the caller's points. */
function outcomeChart(a, outcomes) {
  const figure = el("figure", "chart outcomes");
  figure.append(el("figcaption", "", fmt(_("How calling ends over the sampled deals (the caller's points); it loses in {p}."), { p: percent(a.p_caller_loses) })));
  const most = Math.max(...outcomes.map(([, n]) => n));
  const total = outcomes.reduce((s, [, n]) => s + n, 0);
  for (const [points, n] of outcomes) {
    const bar = el("span", "chart-bar" + (points < 0 ? " minus" : points > 0 ? " plus" : ""));
    bar.style.width = `${Math.max(3, (100 * n) / most)}%`;
    figure.append(el("div", "chart-row", el("span", "label", signed(points)), el("span", "track", bar), el("span", "count", `${number(n)} (${percent(n / total)})`)));
  }
  return figure;
}

/** The hint in play, as lukfu play shows it: the best few moves with your points, ± and how
 * often the caller loses, one line on the rest, and the advice. */
export function hintElement(game, h, onPick) {
  const box = el("div", "hint");
  const samples = fmt(ngettext("{n} sampled deal", "{n} sampled deals", h.samples), { n: number(h.samples) });
  const head = h.you_are_caller
    ? _("Hint (level {level}, {samples}): your expected points, and how often you lose:")
    : _("Hint (level {level}, {samples}): your expected points (as a defender, half of what the caller loses or minus half of what it wins), and how often the caller loses:");
  box.append(el("h3", "", _("Hint")));
  if (!h.samples) {
    box.append(el("p", "", fmt(_("Hint: {move} is your only legal move."), { move: moveWord(h.best) })));
    return box;
  }
  box.append(el("p", "small", fmt(head, { level: h.level, samples })));
  const table = el("table", "moves");
  const lose = h.you_are_caller ? pgettext("column", "you lose") : pgettext("column", "caller loses");
  table.append(el("thead", "", el("tr", "", el("th", "", pgettext("column", "move")), el("th", "num", pgettext("column", "points")), el("th", "num", "±"), el("th", "num", lose))));
  const body = el("tbody");
  h.moves.forEach((m, i) => {
    const pick = button(moveWord(m.move), () => onPick(m.move), { cls: "chip" });
    pick.dataset.move = m.move;
    const row = el("tr", i === 0 ? "best" : "", el("td", "", pick), el("td", "num", signed(m.points, 2)), el("td", "num", number(m.stderr, 2)), el("td", "num", m.caller_loses === null ? "-" : percent(m.caller_loses)));
    body.append(row);
  });
  table.append(body);
  box.append(table);
  if (h.untold) box.append(el("p", "small untold", h.untold));
  box.append(el("p", "recommendation", fmt(_("Advice: {move}"), { move: moveWord(h.best) })));
  return box;
}

/** The calls and every trick so far: leader, each seat's play, the winner and the fu it won;
 * after a review, your decisions' marks on their cards. */
export function historyElement(game, marks = new Map()) {
  const box = el("div", "history");
  box.append(el("h3", "", _("Tricks")));
  const names = seatNames(game.players, game.seat);
  const calls = callsText(game.calls, names);
  if (calls) box.append(el("p", "small", fmt(_("Calls: {calls}"), { calls })));
  if (!game.tricks.length) {
    box.append(el("p", "small", _("No trick played yet.")));
    return box;
  }
  const table = el("table", "tricks");
  const head = el("tr", "", el("th", "num", pgettext("column", "trick")));
  for (const s of [0, 1, 2]) head.append(el("th", s === game.seat ? "you" : "", names[s]));
  head.append(el("th", "num", pgettext("column", "fu")));
  table.append(el("thead", "", head));
  const body = el("tbody");
  const olds = game.hands ? game.old_dealt.join("") : game.old;
  game.tricks.forEach((t, i) => {
    const cells = [el("td"), el("td"), el("td")];
    t.plays.forEach((p, k) => {
      const cell = cells[p.seat];
      cell.append(playElement(p.play, { olds }));
      const mark = marks.get(p.index);
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
  if (last.winner !== null) box.append(el("p", "small", trickWinText(game.tricks.length, last, names, game.seat)));
  return box;
}
