// The table drawn from the table's state: the two other seats, the trick on the table (or the
// call, or the result), and your hand as cards you click, with the moves they make. It knows no
// rules: the trick's best play and winner and the claim's total come in the server's state.

import { cardElement, legend, parseCards, playCards, playElement, suitGroups, suitName } from "./cards.js";
import { button, el, workElement } from "./dom.js";
import { _, fmt, ngettext, number, pgettext, signed, term } from "./i18n.js";
import { combos, discardSize, madeMove, moveTable, playable, reachable } from "./select.js";
import { lastTrick, nextDeal } from "./state.js";
import { callsText, claimText, counted, dealOfText, mayClaimText, outcomeText, roleWord, scoreLine, scoreText, seatNames, trickWinText, who } from "./words.js";

function roles(game, seat) {
  const out = [];
  if (game.master === seat) out.push(el("span", "badge master", term("Master")));
  if (game.caller === seat) out.push(el("span", "badge caller", term("caller")));
  return out;
}

/** One seat's box: name, roles, cards left, fu, face-down discards, whose turn, engine work. */
function seatBox(state, names, seat, handlers) {
  const game = state.game;
  const box = el("section", "seat");
  box.dataset.seat = seat;
  if (game.to_move === seat) box.classList.add("to-move");
  const head = el("h2", "", el("span", "name", names[seat]), el("span", "seatno", fmt(_("seat {seat}"), { seat })));
  head.append(...roles(game, seat));
  box.append(head);
  const facts = el("p", "facts");
  facts.append(
    el("span", "fact", fmt(ngettext("{n} card", "{n} cards", game.hand_sizes[seat]), { n: game.hand_sizes[seat] })),
    el("span", "fact", counted(game.fu[seat], "fu")),
  );
  const down = seat === game.seat ? playCards(game.own_discards).length : game.hidden_discards[seat];
  if (down) facts.append(el("span", "fact", el("b", "", down), " ", pgettext("column", "face down")));
  box.append(facts);
  if (game.hands && seat !== game.seat) {
    const olds = new Set(parseCards(game.old_dealt[seat]));
    const row = el("div", "revealed");
    for (const c of parseCards(game.hands[seat])) row.append(cardElement(c, { old: olds.has(c), small: true }));
    box.append(el("p", "caption", _("dealt")), row);
  } else if (seat !== game.seat) {
    const backs = el("div", "backs");
    for (let i = 0; i < game.hand_sizes[seat]; i++) backs.append(cardElement("", { back: true, small: true }));
    box.append(backs);
  }
  if (state.engine && state.engine.seat === seat) box.append(workElement(state.engine.job, _("thinking…"), _("Stop"), handlers.onStopEngine));
  return box;
}

/** The call: the calls so far, your choices and the advice on request. */
function callArea(game, names, handlers) {
  const area = el("div", "call-area");
  area.append(el("p", "", fmt(_("Calls so far: {calls}."), { calls: callsText(game.calls, names) || _("none yet") })));
  if (game.deal > 1) area.append(el("p", "note", _("All three passed: the cards are dealt again and a new Master is drawn.")));
  if (game.your_turn) {
    area.append(el("p", "prompt", _("Do you play (you become the caller, against the other two) or pass?")));
    const row = el("div", "actions");
    row.append(
      button(term("play"), () => handlers.onMove("play"), { cls: "primary", key: "1", id: "btn-call-play" }),
      button(term("pass"), () => handlers.onMove("pass"), { key: "2", id: "btn-call-pass" }),
      button(_("Advice"), handlers.onHint, { key: "H", id: "btn-advice" }),
    );
    area.append(row);
  } else {
    area.append(el("p", "prompt", fmt(_("{player} is to call."), { player: who(names, game.to_move, game.seat) })));
  }
  return area;
}

/** Where a seat sits on screen: you at the bottom, the next to play on the left, then the right. */
export function position(game, seat) {
  return seat === game.seat ? "bottom" : seat === (game.seat + 1) % 3 ? "left" : "right";
}

/** The trick on the table (the last one, with its winner when complete), placed by seat. */
function trickArea(state, names, handlers) {
  const game = state.game;
  const area = el("div", "trick-area");
  const last = lastTrick(game);
  if (!last) {
    area.append(el("p", "prompt", game.to_move === game.seat ? fmt(_("You lead trick {n}."), { n: 1 }) : _("No trick played yet.")));
    return area;
  }
  const n = game.tricks.length;
  const leader = last.leader === game.seat ? _("Trick {n}, your lead:") : fmt(_("Trick {n}, led by {player}:"), { n, player: names[last.leader] });
  area.append(el("p", "trick-title", fmt(leader, { n })));
  const grid = el("div", "trick-grid");
  const olds = game.hands ? game.old_dealt.join("") : game.old;
  last.plays.forEach((p, i) => {
    const slot = el("div", `slot pos-${position(game, p.seat)}`);
    if (i === last.best) slot.classList.add("best");
    if (state.fresh && i === last.plays.length - 1) slot.classList.add("fresh");
    slot.append(el("span", "slot-label", `${names[p.seat]} · ${roleWord(p.role)}`), playElement(p.play, { olds, small: false }));
    if (i === last.best && last.winner === null) slot.append(el("span", "tag", pgettext("trick", "best so far")));
    grid.append(slot);
  });
  area.append(grid);
  if (last.winner !== null) {
    area.append(el("p", "summary", trickWinText(n, last, names, game.seat)));
    if (state.waiting) area.append(el("div", "actions", button(_("Next trick"), handlers.onGoOn, { cls: "primary", key: "Enter", id: "btn-next-trick" })));
  } else if (n > 1) {
    area.append(el("p", "summary previous", trickWinText(n - 1, game.tricks[n - 2], names, game.seat)));
  }
  const fu = [0, 1, 2].map((s) => `${names[s]} ${game.fu[s]}`).join(" · ");
  area.append(el("p", "fu-line", fmt(_("Fu so far: {fu}"), { fu })));
  return area;
}

/** The end: how the deal ended, the claim with its cards, every seat's net points; in a session
 * of deals, the score so far and the next deal (or the session's summary after the last). */
function resultArea(state, names, handlers) {
  const game = state.game;
  const area = el("div", "result-area");
  area.append(el("h2", "", _("The deal is over.")));
  if (game.claim) {
    area.append(el("p", "claim-line", claimText(game.claim, parseCards(game.claim.old).length, names, game.seat)));
    if (game.claim.old) area.append(el("p", "caption", _("The Old cards shown")), playElement(game.claim.old, { olds: game.claim.old, small: false }));
  }
  area.append(el("p", "outcome", outcomeText(game.outcome, names, game.seat)));
  const table = el("table", "points");
  const body = el("tbody");
  for (const s of [0, 1, 2]) {
    const p = game.outcome.points[s];
    body.append(el("tr", s === game.seat ? "you" : "", el("th", "", who(names, s, game.seat)), el("td", p > 0 ? "plus" : p < 0 ? "minus" : "", signed(p))));
  }
  table.append(el("caption", "", _("Net points")), body);
  area.append(table);
  const mine = game.outcome.points[game.seat];
  const words = ngettext("You (seat {seat}): {points} point — {outcome}.", "You (seat {seat}): {points} points — {outcome}.", Math.abs(mine));
  area.append(el("p", "mine", fmt(words, { seat: game.seat, points: signed(mine), outcome: outcomeText(game.outcome, names, game.seat) })));
  const row = el("div", "actions");
  const series = state.series;
  const next = nextDeal(state);
  if (series && series.played >= game.series.deal) area.append(el("p", "score-line", scoreLine(series)));
  if (next !== null) {
    row.append(button(fmt(_("Next deal ({k} of {n})"), { k: next, n: series.deals }), handlers.onNextDeal, { cls: "primary", id: "btn-next-deal" }));
  } else if (series) {
    row.append(button(_("The session's summary"), handlers.onSummary, { cls: "primary", id: "btn-summary" }));
  }
  row.append(
    button(_("Review the deal"), handlers.onReview, { cls: series ? "" : "primary", key: "R", id: "btn-review" }),
    button(_("New game"), handlers.onNew, { key: "N", id: "btn-new-after" }),
  );
  area.append(row);
  return area;
}

/** A deal of a session: which deal of how many, the score so far, the way to the summary. */
function seriesBar(state, handlers) {
  const series = state.series;
  const bar = el("div", "series-bar");
  bar.append(el("b", "", dealOfText(state.game.series.deal, series.deals)), el("span", "score", scoreText(series.names, series.totals)));
  const next = nextDeal(state);
  const go = el("span", "series-actions");
  if (next !== null) go.append(button(fmt(_("Next deal ({k} of {n})"), { k: next, n: series.deals }), handlers.onNextDeal, { cls: "small primary", id: "btn-bar-next" }));
  go.append(button(_("Score"), handlers.onSummary, { cls: "small", id: "btn-series" }));
  bar.append(go);
  return bar;
}

/** Your hand by suit: every card a button; the legal ones raised, the chosen ones lifted. */
function handArea(state, handlers) {
  const game = state.game;
  const area = el("section", "hand-area");
  const moves = moveTable(game.choices);
  const can = playable(moves);
  const olds = new Set(parseCards(game.old));
  const mine = game.phase === "play" && game.your_turn;
  const live = mine && reachable(moves, state.chosen);
  const discarding = discardSize(moves) > 0;
  const title = el("h2", "", fmt(_("your hand (seat {seat})"), { seat: game.seat }));
  title.append(...roles(game, game.seat));
  area.append(title);
  const hand = el("div", "hand");
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", _("your hand"));
  suitGroups(parseCards(game.hand)).forEach((cards, s) => {
    if (!cards.length) return;
    const row = el("div", "cards");
    const group = el("div", "suit-group", el("span", "suit-label", `${"CSMT"[s]} ${suitName(s)}`), row);
    for (const c of cards) {
      const b = cardElement(c, { old: olds.has(c), tag: "button" });
      b.type = "button";
      if (mine) {
        const chosen = state.chosen.has(c);
        const inReach = live.some((m) => m.cards.has(c)) || (discarding && !chosen);
        b.classList.toggle("playable", can.has(c));
        b.classList.toggle("chosen", chosen);
        b.classList.toggle("dim", !can.has(c) || (state.chosen.size > 0 && !chosen && !inReach));
        b.setAttribute("aria-pressed", chosen ? "true" : "false");
        b.addEventListener("click", () => handlers.onCard(c));
        b.addEventListener("dblclick", () => handlers.onQuick(c));
      } else {
        b.disabled = game.phase !== "play";
        b.tabIndex = -1;
      }
      row.append(b);
    }
    hand.append(group);
  });
  area.append(hand);
  if (game.hands && !parseCards(game.hand).length) {
    const dealtOld = new Set(parseCards(game.old_dealt[game.seat]));
    const row = el("div", "revealed");
    for (const c of parseCards(game.hands[game.seat])) row.append(cardElement(c, { old: dealtOld.has(c), small: true }));
    area.append(el("p", "caption", _("dealt")), row);
  }
  if (olds.size) area.append(legend());
  if (mine) area.append(moveBar(state, moves, handlers));
  return area;
}

/** Under your hand: the move the chosen cards make, the sets and runs, Claim, and what to do. */
function moveBar(state, moves, handlers) {
  const game = state.game;
  const bar = el("div", "move-bar");
  const made = madeMove(moves, state.chosen);
  const size = discardSize(moves);
  const last = lastTrick(game);
  let prompt;
  if (size) {
    prompt = fmt(ngettext("You cannot beat {best}: choose {n} card to discard face down.", "You cannot beat {best}: choose {n} cards to discard face down.", size), { best: last.plays[last.best].play, n: size });
  } else if (last && last.winner === null) {
    prompt = _("Beat the best play: click a card, or a set or run below.");
  } else {
    prompt = _("Your lead: click a card, or a set or run below.");
  }
  bar.append(el("p", "prompt", prompt));
  const row = el("div", "actions");
  const label = made ? (made.startsWith("x") ? fmt(_("Discard {cards}"), { cards: made.slice(1) }) : fmt(_("Play {move}"), { move: made })) : size ? fmt(ngettext("Choose {n} card", "Choose {n} cards", size), { n: size }) : _("Choose a card");
  row.append(button(label, () => made && handlers.onMove(made), { cls: "primary", key: "Enter", disabled: !made, id: "btn-play" }));
  if (game.claim_total !== null) {
    row.append(button(fmt(_("Claim ({total})"), { total: game.claim_total }), () => handlers.onMove("claim"), { cls: "claim", key: "C", id: "btn-claim" }));
  }
  if (state.chosen.size) row.append(button(_("Clear"), handlers.onClear, { key: "Esc" }));
  bar.append(row);
  if (size && game.sensible && game.sensible.length) {
    // the few sensible discards first (lukfu play's menu order); any other is the cards you choose
    const chips = el("div", "combos sensible");
    chips.append(el("span", "caption", _("Sensible discards:")));
    for (const text of game.sensible) {
      const chip = button(text.slice(1), () => handlers.onCombo(text), { cls: "chip" + (made === text ? " on" : "") });
      chip.dataset.move = text;
      chips.append(chip);
    }
    const rest = moves.filter((m) => m.discard).length - game.sensible.length;
    if (rest > 0) chips.append(el("span", "caption", fmt(ngettext("or {n} other discard: choose its cards in your hand", "or {n} other discards: choose their cards in your hand", rest), { n: number(rest) })));
    bar.append(chips);
  }
  const sets = combos(moves);
  if (sets.length) {
    const chips = el("div", "combos");
    chips.append(el("span", "caption", _("Sets and runs:")));
    for (const text of sets) {
      const chip = button(text, () => handlers.onCombo(text), { cls: "chip" });
      chip.dataset.move = text;
      chips.append(chip);
    }
    bar.append(chips);
  }
  if (game.claim_total !== null) {
    bar.append(el("p", "claim-hint", mayClaimText(game.fu[game.seat], parseCards(game.old).length, game.claim_total, game.claim_worth)));
  }
  return bar;
}

/** The whole table for the table's `state`; `handlers` are the page's actions. */
export function renderTable(root, state, handlers) {
  const game = state.game;
  const names = seatNames(game.players, game.seat);
  root.replaceChildren();
  if (state.series && game.series) root.append(seriesBar(state, handlers));
  const top = el("div", "opponents");
  for (const s of [(game.seat + 1) % 3, (game.seat + 2) % 3]) top.append(seatBox(state, names, s, handlers));
  root.append(top);
  const centre = el("div", "centre");
  if (game.phase === "call") centre.append(callArea(game, names, handlers));
  else centre.append(trickArea(state, names, handlers));
  if (game.phase === "over") centre.append(resultArea(state, names, handlers));
  root.append(centre);
  if (game.caller !== null) root.append(el("p", "caller-line", fmt(_("Caller: {caller}"), { caller: who(names, game.caller, game.seat) })));
  root.append(handArea(state, handlers));
}
