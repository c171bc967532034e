// The table drawn from a game's state: the two other seats, the trick on the table (or the call,
// or the result), and your hand as cards you click, with the moves they make.

import { cardElement, legend, parseCards, playCards, playElement, suitGroups, suitName } from "./cards.js";
import { _, fmt, ngettext, number, pgettext, signed, term } from "./i18n.js";
import { combos, madeMove, moveTable, playable, reachable } from "./select.js";

/** A new element with a class and text (or children). */
export function el(tag, cls, ...content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of content) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/** A button with its label, a click handler and an optional keyboard hint. */
export function button(label, onClick, { cls = "", key = "", disabled = false, id = "" } = {}) {
  const b = el("button", cls, label);
  b.type = "button";
  if (id) b.id = id;
  if (key) {
    b.append(el("kbd", "", key));
    b.setAttribute("aria-keyshortcuts", key);
  }
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

/** A plain strength (easy, medium, strong) in the reader's language. */
export function strengthWord(word) {
  const words = { easy: pgettext("strength", "easy"), medium: pgettext("strength", "medium"), strong: pgettext("strength", "strong") };
  return words[word] || word;
}

/** A name a record keeps, as shown (lukfu's render.player_name): "you" and a strength ("medium A")
 * in the reader's language, an engine spec ("pimc:2 B") as it is. */
export function shownName(name) {
  if (name === "you") return _("you");
  const [word, letter] = name.split(" ");
  if (["easy", "medium", "strong"].includes(word) && (letter === undefined || letter === "A" || letter === "B")) return strengthWord(word) + (letter ? ` ${letter}` : "");
  return name;
}

/** A player's name as shown: "you" in the reader's language, an engine by its strength or spec. */
export function playerName(game, seat) {
  return seat === game.seat ? _("you") : shownName(game.players[seat]);
}

/** "seat 2 (easy B)" or "you". */
export function who(game, seat) {
  return seat === game.seat ? _("you") : fmt(_("seat {seat} ({player})"), { seat, player: playerName(game, seat) });
}

/** What a win with `total` is worth and who pays it (lukfu's render.worth_text: R16–R17). */
export function worthText(total, winner, caller) {
  const n = total - 5;
  const words = winner === caller
    ? ngettext("worth {n} point from each of the other two", "worth {n} points from each of the other two", n)
    : ngettext("worth {n} point, paid twice by the caller", "worth {n} points, paid twice by the caller", n);
  return fmt(words, { n });
}

function counted(n, word) {
  const forms = {
    fu: ngettext("{n} fu", "{n} fu", n),
    old: ngettext("{n} Old card", "{n} Old cards", n),
    point: ngettext("{n} point", "{n} points", n),
  };
  return fmt(forms[word], { n });
}

/** How the deal ended, in words (R14–R16). */
export function outcomeText(o) {
  if (o.winner === null) return _("void: the hands ran out and nobody won six fu, so nobody scores");
  if (o.how === "claim") return fmt(_("seat {seat} wins by claim with a total of {total}"), { seat: o.winner, total: o.total });
  return fmt(_("seat {seat} wins with {total} fu when the hands ran out"), { seat: o.winner, total: o.total });
}

/** The claim as it happened: who, fu won + Old cards shown = total, worth and who pays. */
export function claimText(game, claim) {
  const fields = {
    seat: claim.seat,
    player: playerName(game, claim.seat),
    fu: counted(claim.fu, "fu"),
    old: counted(parseCards(claim.old).length, "old"),
    total: claim.total,
    worth: worthText(claim.total, claim.seat, game.caller),
  };
  if (claim.seat === game.seat) return fmt(_("You claim: {fu} won + {old} shown = {total}, {worth}. The deal ends."), fields);
  return fmt(_("Seat {seat} ({player}) claims: {fu} won + {old} shown = {total}, {worth}. The deal ends."), fields);
}

/** "→ Seat 2 (rule B) wins trick 3 (+1 fu)." */
export function trickWinText(game, n, trick) {
  const fields = { seat: trick.winner, player: playerName(game, trick.winner), n, won: trick.fu_won };
  if (trick.winner === game.seat) return fmt(_("→ You win trick {n} (+{won} fu)."), fields);
  return fmt(_("→ Seat {seat} ({player}) wins trick {n} (+{won} fu)."), fields);
}

function roles(game, seat) {
  const out = [];
  if (seat === 0) out.push(el("span", "badge master", term("Master")));
  if (game.caller === seat) out.push(el("span", "badge caller", term("caller")));
  return out;
}

/** One seat's box: name, roles, cards left, fu, face-down discards, whose turn, engine work. */
function seatBox(game, seat, ui) {
  const box = el("section", "seat");
  box.dataset.seat = seat;
  if (game.to_move === seat) box.classList.add("to-move");
  const head = el("h2", "", el("span", "name", playerName(game, seat)), el("span", "seatno", fmt(_("seat {seat}"), { seat })));
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
  const work = ui.engineWork;
  if (work && work.seat === seat) box.append(ui.workElement(work.job, _("thinking…")));
  return box;
}

/** The call: the calls so far, your choices and the advice on request. */
function callArea(game, handlers) {
  const area = el("div", "call-area");
  const calls = game.calls.map((c, i) => fmt(_("seat {seat} {call}"), { seat: i, call: term(c) })).join(", ") || _("none yet");
  area.append(el("p", "", fmt(_("Calls so far: {calls}."), { calls })));
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
    area.append(el("p", "prompt", fmt(_("Seat {seat} is to call."), { seat: game.to_move })));
  }
  return area;
}

function slotLabel(game, p, i) {
  const words = i === 0 ? pgettext("trick", "lead") : p.kind === "discard" ? pgettext("trick", "discard") : pgettext("trick", "beats");
  return `${playerName(game, p.seat)} · ${words}`;
}

/** The trick on the table (the last one, with its winner when complete), placed by seat. */
function trickArea(game, ui) {
  const area = el("div", "trick-area");
  const tricks = game.tricks;
  const last = tricks[tricks.length - 1];
  if (!last) {
    area.append(el("p", "prompt", game.to_move === game.seat ? fmt(_("You lead trick {n}."), { n: 1 }) : _("No trick played yet.")));
    return area;
  }
  const n = tricks.length;
  area.append(el("p", "trick-title", fmt(_("Trick {n}, led by seat {seat}:"), { n, seat: last.leader })));
  const grid = el("div", "trick-grid");
  let best = 0;
  last.plays.forEach((p, i) => {
    if (p.kind !== "discard") best = i;
  });
  const olds = game.hands ? game.old_dealt.join("") : game.old;
  last.plays.forEach((p, i) => {
    const slot = el("div", `slot pos-${position(game, p.seat)}`);
    if (i === best) slot.classList.add("best");
    if (ui.fresh && i === last.plays.length - 1) slot.classList.add("fresh");
    slot.append(el("span", "slot-label", slotLabel(game, p, i)), playElement(p.play, { olds, small: false }));
    if (i === best && last.winner === null) slot.append(el("span", "tag", pgettext("trick", "best so far")));
    grid.append(slot);
  });
  area.append(grid);
  if (last.winner !== null) area.append(el("p", "summary", trickWinText(game, n, last)));
  const fu = [0, 1, 2].map((s) => `${playerName(game, s)} ${game.fu[s]}`).join(" · ");
  area.append(el("p", "fu-line", fmt(_("Fu so far: {fu}"), { fu })));
  return area;
}

/** Where a seat sits on screen: you at the bottom, the next to play on the left, then the right. */
export function position(game, seat) {
  return seat === game.seat ? "bottom" : seat === (game.seat + 1) % 3 ? "left" : "right";
}

/** The end: how the deal ended, the claim with its cards, every seat's net points. */
function resultArea(game, handlers) {
  const area = el("div", "result-area");
  area.append(el("h2", "", _("The deal is over.")));
  if (game.claim) {
    area.append(el("p", "claim-line", claimText(game, game.claim)));
    if (game.claim.old) area.append(el("p", "caption", _("The Old cards shown")), playElement(game.claim.old, { olds: game.claim.old, small: false }));
  }
  area.append(el("p", "outcome", outcomeText(game.outcome)));
  const table = el("table", "points");
  const body = el("tbody");
  for (const s of [0, 1, 2]) {
    const p = game.outcome.points[s];
    const row = el("tr", s === game.seat ? "you" : "", el("th", "", who(game, s)), el("td", p > 0 ? "plus" : p < 0 ? "minus" : "", signed(p)));
    body.append(row);
  }
  table.append(el("caption", "", _("Net points")), body);
  area.append(table);
  const mine = game.outcome.points[game.seat];
  const words = ngettext("You (seat {seat}): {points} point — {outcome}.", "You (seat {seat}): {points} points — {outcome}.", Math.abs(mine));
  area.append(el("p", "mine", fmt(words, { seat: game.seat, points: signed(mine), outcome: outcomeText(game.outcome) })));
  const row = el("div", "actions");
  row.append(
    button(_("Review the deal"), handlers.onReview, { cls: "primary", key: "R", id: "btn-review" }),
    button(_("New game"), handlers.onNew, { key: "N", id: "btn-new-after" }),
  );
  area.append(row);
  return area;
}

/** Your hand by suit: every card a button; the legal ones raised, the chosen ones lifted. */
function handArea(game, ui, handlers) {
  const area = el("section", "hand-area");
  const moves = moveTable(game.choices);
  const can = playable(moves);
  const olds = new Set(parseCards(game.old));
  const mine = game.phase === "play" && game.your_turn;
  const live = mine && reachable(moves, ui.chosen);
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
        const chosen = ui.chosen.has(c);
        const inReach = live.some((m) => m.cards.has(c)) || (moves.some((m) => m.discard) && !chosen);
        b.classList.toggle("playable", can.has(c));
        b.classList.toggle("chosen", chosen);
        b.classList.toggle("dim", !can.has(c) || (ui.chosen.size > 0 && !chosen && !inReach));
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
  if (mine) area.append(moveBar(game, ui, moves, handlers));
  return area;
}

/** Under your hand: the move the chosen cards make, the sets and runs, Claim, and what to do. */
function moveBar(game, ui, moves, handlers) {
  const bar = el("div", "move-bar");
  const made = madeMove(moves, ui.chosen);
  const discarding = moves.some((m) => m.discard);
  const size = discarding ? moves.find((m) => m.discard).cards.size : 0;
  let hintText;
  if (discarding) {
    const best = game.tricks[game.tricks.length - 1];
    const shown = best.plays.filter((p) => p.kind !== "discard").pop();
    hintText = fmt(ngettext("You cannot beat {best}: choose {n} card to discard face down.", "You cannot beat {best}: choose {n} cards to discard face down.", size), { best: shown.play, n: size });
  } else if (game.tricks.length && game.tricks[game.tricks.length - 1].winner === null) {
    hintText = _("Beat the best play: click a card, or a set or run below.");
  } else {
    hintText = _("Your lead: click a card, or a set or run below.");
  }
  bar.append(el("p", "prompt", hintText));
  const row = el("div", "actions");
  const label = made ? (made.startsWith("x") ? fmt(_("Discard {cards}"), { cards: made.slice(1) }) : fmt(_("Play {move}"), { move: made })) : discarding ? fmt(ngettext("Choose {n} card", "Choose {n} cards", size), { n: size }) : _("Choose a card");
  row.append(button(label, () => made && handlers.onMove(made), { cls: "primary", key: "Enter", disabled: !made, id: "btn-play" }));
  if (game.choices.includes("claim")) {
    const total = game.fu[game.seat] + parseCards(game.old).length;
    row.append(button(fmt(_("Claim ({total})"), { total }), () => handlers.onMove("claim"), { cls: "claim", key: "C", id: "btn-claim" }));
  }
  if (ui.chosen.size) row.append(button(_("Clear"), handlers.onClear, { key: "Esc" }));
  bar.append(row);
  if (discarding && game.sensible && game.sensible.length) {
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
  if (game.choices.includes("claim")) {
    const total = game.fu[game.seat] + parseCards(game.old).length;
    const fields = { fu: counted(game.fu[game.seat], "fu"), old: counted(parseCards(game.old).length, "old"), total, worth: worthText(total, game.seat, game.caller) };
    bar.append(el("p", "claim-hint", fmt(_("You may claim: {fu} won + {old} = {total}, {worth} (a claim ends the deal now)."), fields)));
  }
  return bar;
}

/** The whole table for `game`; `ui` holds the page's choices, `handlers` its actions. */
export function renderTable(root, game, ui, handlers) {
  root.replaceChildren();
  const top = el("div", "opponents");
  for (const s of [(game.seat + 1) % 3, (game.seat + 2) % 3]) top.append(seatBox(game, s, ui));
  root.append(top);
  const centre = el("div", "centre");
  if (game.phase === "call") centre.append(callArea(game, handlers));
  else centre.append(trickArea(game, ui));
  if (game.phase === "over") centre.append(resultArea(game, handlers));
  root.append(centre);
  if (game.caller !== null) {
    const caller = who(game, game.caller);
    root.append(el("p", "caller-line", fmt(_("Caller: {caller}"), { caller })));
  }
  root.append(handArea(game, ui, handlers));
}
