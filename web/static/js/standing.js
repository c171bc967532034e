// Your record of play, a page of its own: the deals you have played and your points a deal against
// each strength, with the 95% interval the server gives once there are enough deals, as a table
// and a chart; then your last sessions. Every figure is the server's (GET /api/standing, from the
// saved records); the page only draws them.

import { button, el, svg } from "./dom.js";
import { _, fmt, language, ngettext, number, pgettext, signed } from "./i18n.js";
import { againstText } from "./words.js";

/** The scale of the chart: the largest distance from 0 of a mean or an interval's end (at least 1). */
export function chartSpan(rows) {
  const ends = rows.flatMap((a) => [a.mean, ...(a.ci95 || [])]).map(Math.abs);
  return Math.max(1, Math.ceil(Math.max(0, ...ends)));
}

/** Points a deal against each set of opponents: a bar from 0 to the mean, the interval as a
 * whisker across it; the axis labelled. */
function standingChart(rows) {
  const narrow = window.innerWidth < 600;
  const w = narrow ? 360 : 620;
  const label = narrow ? 96 : 150;
  const rowH = 34;
  const top = 8;
  const bottom = 40;
  const h = top + rows.length * rowH + bottom;
  const span = chartSpan(rows);
  const x = (v) => label + ((v + span) / (2 * span)) * (w - label - 16);
  const caption = _("Your points a deal against each strength, with the 95% interval:");
  const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "graph standing-graph", role: "img", "aria-label": caption });
  for (const v of [-span, -span / 2, 0, span / 2, span]) {
    chart.append(svg("line", { x1: x(v), x2: x(v), y1: top, y2: h - bottom, class: v === 0 ? "axis" : "grid" }));
    chart.append(svg("text", { x: x(v), y: h - bottom + 16, class: "tick", "text-anchor": "middle" }, signed(v, Number.isInteger(v) ? 0 : 1)));
  }
  chart.append(svg("text", { x: (label + w) / 2, y: h - 4, class: "axis-label", "text-anchor": "middle" }, _("points a deal")));
  rows.forEach((a, i) => {
    const y = top + i * rowH + rowH / 2;
    chart.append(svg("text", { x: label - 8, y: y + 4, class: "tick name", "text-anchor": "end" }, againstText(a.opponents)));
    const from = Math.min(x(0), x(a.mean));
    chart.append(svg("rect", { x: from, y: y - 8, width: Math.max(1.5, Math.abs(x(a.mean) - x(0))), height: 16, class: a.mean < 0 ? "bar minus" : "bar plus" }));
    if (a.ci95) {
      const [lo, hi] = a.ci95.map((v) => Math.max(-span, Math.min(span, v)));
      chart.append(svg("line", { x1: x(lo), x2: x(hi), y1: y, y2: y, class: "whisker" }));
      for (const v of [lo, hi]) chart.append(svg("line", { x1: x(v), x2: x(v), y1: y - 7, y2: y + 7, class: "whisker" }));
    }
  });
  const figure = el("figure", "chart standing-chart");
  figure.append(el("figcaption", "", caption), chart);
  return figure;
}

/** The table: whom, deals, points a deal, its interval, how often you called and won. */
function standingTable(data) {
  const table = el("table", "standing-table");
  const heads = [["", pgettext("column", "against")], ["num", pgettext("column", "deals")], ["num", pgettext("column", "points a deal")], ["num", pgettext("column", "95% interval")], ["num", pgettext("column", "you called")], ["num", pgettext("column", "you won")]];
  table.append(el("thead", "", el("tr", "", ...heads.map(([cls, t]) => el("th", cls, t)))));
  const body = el("tbody");
  for (const a of data.against) {
    const ci = a.ci95 ? `${signed(a.ci95[0], 2)} … ${signed(a.ci95[1], 2)}` : fmt(ngettext("from {n} deal", "from {n} deals", data.min_deals), { n: data.min_deals });
    body.append(el("tr", "", el("th", "", againstText(a.opponents)), el("td", "num", number(a.deals)), el("td", "num", signed(a.mean, 2)), el("td", "num" + (a.ci95 ? "" : " muted"), ci), el("td", "num", number(a.called)), el("td", "num", number(a.won))));
  }
  table.append(body);
  return table;
}

/** Your last sessions: when, against whom, how far, your total; `onOpen(id)` opens its summary. */
function sessionsList(sessions, onOpen) {
  const list = el("ul", "games sessions");
  for (const s of sessions) {
    const when = new Date(s.updated * 1000).toLocaleDateString(language());
    const open = button(fmt(_("{against}, {k} of {n} deals"), { against: againstText(s.opponents), k: s.played, n: s.deals }), () => onOpen(s.id), { cls: "link" });
    open.dataset.session = s.id;
    list.append(el("li", "", open, el("span", "small", ` ${fmt(_("your total {points}"), { points: signed(s.totals[0]) })} · ${when}`)));
  }
  return list;
}

/** Your record's page in `root` (`data`: GET /api/standing; `sessions`: the last few sessions);
 * `handlers`: onBack (null when no game is open), onOpenSession(id). */
export function renderStanding(root, data, sessions, handlers) {
  root.replaceChildren();
  const head = el("div", "page-head", el("h2", "", _("Your record")));
  if (handlers.onBack) head.append(button(_("Back to the table"), handlers.onBack, { key: "Esc", id: "btn-standing-close" }));
  root.append(head);
  if (!data.deals) {
    root.append(el("p", "", _("No deal finished yet: your record starts with your first deal.")));
  } else {
    const words = ngettext("{n} deal played, {points} points in all.", "{n} deals played, {points} points in all.", data.deals);
    root.append(el("p", "big", fmt(words, { n: number(data.deals), points: signed(data.points) })));
    const box = el("div", "standing-top", el("div", "table-box", standingTable(data)), standingChart(data.against));
    root.append(box);
    root.append(el("p", "small", fmt(_("A 95% interval is given from {n} deals against the same players on: with fewer it says little."), { n: data.min_deals })));
  }
  if (data.damaged) root.append(el("p", "small error", fmt(ngettext("{n} damaged record is left out (Games lists it).", "{n} damaged records are left out (Games lists them).", data.damaged), { n: data.damaged })));
  if (sessions.length) {
    root.append(el("h3", "", _("Your last sessions")), sessionsList(sessions, handlers.onOpenSession));
  }
}
