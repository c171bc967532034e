// A session of several deals (the evening, as `lukfu play --deals N`): its summary as a page of
// its own, as the terminal prints it at the end: every deal played (your seat, starred when you
// called; who won; everyone's points), the totals and whom you played; your points deal by deal
// as a chart. The rows and totals are the server's (from the deals' records): nothing is added up here.

import { button, el } from "./dom.js";
import { _, fmt, ngettext, pgettext, signed } from "./i18n.js";
import { shownName } from "./words.js";

/** Whom the session is against and its deals' seeds: "5 deals against easy A and easy B, seeds 74–78." */
export function seriesHead(series) {
  const last = series.seed + series.deals - 1;
  const words = ngettext("{n} deal against {a} and {b}, seeds {first}–{last}.", "{n} deals against {a} and {b}, seeds {first}–{last}.", series.deals);
  return fmt(words, { n: series.deals, a: shownName(series.names[1]), b: shownName(series.names[2]), first: series.seed, last });
}

/** Your points deal by deal, one bar a deal (the deals' own rows). */
function pointsChart(series) {
  const figure = el("figure", "chart session-chart");
  figure.append(el("figcaption", "", _("Your points deal by deal")));
  const most = Math.max(1, ...series.rows.map((r) => Math.abs(r.points[0])));
  for (const r of series.rows) {
    const p = r.points[0];
    const bar = el("span", "chart-bar" + (p < 0 ? " minus" : p > 0 ? " plus" : ""));
    bar.style.width = `${Math.max(2, (50 * Math.abs(p)) / most)}%`;
    bar.style.marginLeft = p < 0 ? `${50 - (50 * Math.abs(p)) / most}%` : "50%";
    figure.append(el("div", "chart-row", el("span", "label", fmt(_("deal {k}"), { k: r.deal })), el("span", "track centred", bar), el("span", "count", signed(p))));
  }
  return figure;
}

/** The summary's table: a row a deal, then the totals. `onOpen(gameId)` opens a deal. */
function summaryTable(series, onOpen) {
  const table = el("table", "session-table");
  const head = el("tr", "", el("th", "num", pgettext("column", "deal")), el("th", "num", pgettext("column", "your seat")), el("th", "", pgettext("column", "winner")));
  series.names.forEach((n, i) => head.append(el("th", "num" + (i === 0 ? " you" : ""), shownName(n))));
  table.append(el("thead", "", head));
  const body = el("tbody");
  for (const r of series.rows) {
    const open = button(String(r.deal), () => onOpen(r.game), { cls: "link" });
    open.dataset.game = r.game;
    const seat = r.caller === r.seat ? `${r.seat}*` : String(r.seat);
    const cells = r.points.map((p) => el("td", "num" + (p > 0 ? " gain" : p < 0 ? " loss" : ""), signed(p)));
    body.append(el("tr", "", el("td", "num", open), el("td", "num", seat), el("td", "", r.winner_name === null ? "-" : shownName(r.winner_name)), ...cells));
  }
  const total = el("tr", "total", el("th", "", _("total")), el("td"), el("td"), ...series.totals.map((p) => el("td", "num", signed(p))));
  body.append(total);
  table.append(body);
  return table;
}

/** The session's summary page in `root`; `handlers`: onBack (to the table), onOpen(gameId),
 * onNew (the start screen), onRecord (your record). */
export function renderSummary(root, series, handlers) {
  root.replaceChildren();
  const head = el("div", "page-head", el("h2", "", _("The session")));
  head.append(button(_("Back to the table"), handlers.onBack, { key: "Esc", id: "btn-summary-close" }));
  root.append(head);
  root.append(el("p", "", seriesHead(series)));
  const state = series.over
    ? fmt(ngettext("Your total after {n} deal: {points}.", "Your total after {n} deals: {points}.", series.played), { n: series.played, points: signed(series.totals[0]) })
    : fmt(ngettext("{k} of {n} deal played so far.", "{k} of {n} deals played so far.", series.deals), { k: series.played, n: series.deals });
  root.append(el("p", "session-state", state));
  const box = el("div", "session-top");
  const left = el("div", "table-box", summaryTable(series, handlers.onOpen), el("p", "small", _("* you were the caller")));
  box.append(left);
  if (series.rows.length) box.append(pointsChart(series));
  root.append(box);
  for (const d of series.damaged) {
    const why = d.reason || _("its record is missing");
    root.append(el("p", "error small", fmt(_("Deal {k} is left out of the score: {reason}"), { k: d.deal, reason: why })));
  }
  const row = el("div", "actions");
  row.append(button(_("New game"), handlers.onNew, { id: "btn-summary-new" }), button(_("Your record"), handlers.onRecord, { id: "btn-summary-record" }));
  root.append(row);
}
