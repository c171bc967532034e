// The game's words for the page: names of players and strengths, what a trick, a claim or a deal
// came to, in the reader's language. Pure functions of the server's facts (the rules' numbers
// come in the JSON: a trick's winner, a claim's total); nothing here touches the page.

import { _, fmt, ngettext, pgettext, signed, term } from "./i18n.js";

const STRENGTHS = ["easy", "medium", "strong"];

/** A plain strength (easy, medium, strong) in the reader's language; any other word as it is. */
export function strengthWord(word) {
  const words = { easy: pgettext("strength", "easy"), medium: pgettext("strength", "medium"), strong: pgettext("strength", "strong") };
  return words[word] || word;
}

/** A name a record keeps, as shown (lukfu's render.player_name): "you" and a strength ("medium A")
 * in the reader's language, an engine spec ("pimc:2 B") as it is. */
export function shownName(name) {
  if (name === "you") return _("you");
  const [word, letter] = name.split(" ");
  if (STRENGTHS.includes(word) && (letter === undefined || letter === "A" || letter === "B")) return strengthWord(word) + (letter ? ` ${letter}` : "");
  return name;
}

/** The three seats' names as shown: `you` (a seat, or null for a record watched) is "you". */
export function seatNames(players, you = null) {
  return [0, 1, 2].map((s) => (s === you ? _("you") : players ? shownName(players[s]) : fmt(_("seat {seat}"), { seat: s })));
}

/** "you", or "seat 2 (easy B)". */
export function who(names, seat, you = null) {
  return seat === you ? _("you") : fmt(_("seat {seat} ({player})"), { seat, player: names[seat] });
}

/** A count with its word: "3 fu", "2 Old cards", "1 point". */
export function counted(n, word) {
  const forms = {
    fu: ngettext("{n} fu", "{n} fu", n),
    old: ngettext("{n} Old card", "{n} Old cards", n),
    point: ngettext("{n} point", "{n} points", n),
  };
  return fmt(forms[word], { n });
}

/** What a win is worth and who pays it, as the server says it (lukfu's rules.worth, R16–R17):
 * `worth` is {points, paid_by: "others" (the caller won: each of the other two pays) or "caller"}. */
export function worthText(worth) {
  const n = worth.points;
  const words = worth.paid_by === "others"
    ? ngettext("worth {n} point from each of the other two", "worth {n} points from each of the other two", n)
    : ngettext("worth {n} point, paid twice by the caller", "worth {n} points, paid twice by the caller", n);
  return fmt(words, { n });
}

/** How the deal ended, in words (R14–R16), the winner by name ("seat 2 (easy B)"). */
export function outcomeText(o, names, you = null) {
  if (o.winner === null) return _("void: the hands ran out and nobody won six fu, so nobody scores");
  if (o.winner === you) {
    if (o.how === "claim") return fmt(_("you win by claim with a total of {total}"), { total: o.total });
    return fmt(_("you win with {total} fu when the hands ran out"), { total: o.total });
  }
  const fields = { player: who(names, o.winner), total: o.total };
  if (o.how === "claim") return fmt(_("{player} wins by claim with a total of {total}"), fields);
  return fmt(_("{player} wins with {total} fu when the hands ran out"), fields);
}

/** A claim as it happened ({seat, fu, old, total, worth}): who, fu won + Old cards shown = total,
 * what it is worth and who pays. `oldCount` is the number of Old cards shown. */
export function claimText(claim, oldCount, names, you = null) {
  const fields = {
    seat: claim.seat,
    player: names[claim.seat],
    fu: counted(claim.fu, "fu"),
    old: counted(oldCount, "old"),
    total: claim.total,
    worth: worthText(claim.worth),
  };
  if (claim.seat === you) return fmt(_("You claim: {fu} won + {old} shown = {total}, {worth}. The deal ends."), fields);
  return fmt(_("Seat {seat} ({player}) claims: {fu} won + {old} shown = {total}, {worth}. The deal ends."), fields);
}

/** The claim open to you: "You may claim: 4 fu won + 2 Old cards = 6, worth …" (`worth` the server's). */
export function mayClaimText(fu, oldCount, total, worth) {
  const fields = { fu: counted(fu, "fu"), old: counted(oldCount, "old"), total, worth: worthText(worth) };
  return fmt(_("You may claim: {fu} won + {old} = {total}, {worth} (a claim ends the deal now)."), fields);
}

/** "→ Seat 2 (easy B) wins trick 3 (+1 fu)." for trick number `n` (its winner from the server). */
export function trickWinText(n, trick, names, you = null) {
  const fields = { seat: trick.winner, player: names[trick.winner], n, won: trick.fu_won };
  if (trick.winner === you) return fmt(_("→ You win trick {n} (+{won} fu)."), fields);
  return fmt(_("→ Seat {seat} ({player}) wins trick {n} (+{won} fu)."), fields);
}

/** What a play does in its trick (its role: lead, beat, discard, claim), as a short word. */
export function roleWord(role) {
  if (role === "lead") return pgettext("trick", "lead");
  if (role === "discard") return pgettext("trick", "discard");
  if (role === "claim") return term("claim");
  return pgettext("trick", "beats");
}

/** The calls so far by name: "you: pass, easy A: play" (empty before the first). */
export function callsText(calls, names) {
  return calls.map((c, i) => fmt(_("{player}: {call}"), { player: names[i], call: term(c) })).join(", ");
}

/** What a step of a replay did, by seat and name: "seat 1 (easy A) leads S7" (its role). */
export function moveWords(move, names) {
  if (!move) return _("The deal as dealt, before the first lead.");
  const fields = { player: who(names, move.seat), play: move.play, cards: move.play.slice(1) };
  if (move.role === "lead") return fmt(_("{player} leads {play}"), fields);
  if (move.role === "discard") return fmt(_("{player} discards {cards} face down"), fields);
  if (move.role === "claim") return fmt(_("{player} claims"), fields);
  return fmt(_("{player} beats with {play}"), fields);
}

/** A move as the page names it: a claim (or a call) in the reader's word, a play in the notation. */
export function moveWord(move) {
  return ["claim", "play", "pass"].includes(move) ? term(move) : move;
}

/** Whom you played, by the labels the server gives (["easy"], ["easy", "strong"], ["pimc:2"]):
 * "easy", "easy + strong" in the reader's language. */
export function againstText(labels) {
  return labels.map(strengthWord).join(" + ");
}

/** The running score, you first: "you +3 · easy A -1 · easy B -2" (`names` and `totals` in the
 * session's order). */
export function scoreText(names, totals) {
  return names.map((n, i) => `${shownName(n)} ${signed(totals[i])}`).join(" · ");
}

/** "Deal 2 of 5" of a session of deals. */
export function dealOfText(deal, deals) {
  return fmt(_("Deal {k} of {n}"), { k: deal, n: deals });
}

/** "Score after deal 2 of 5: you +3 · easy A -1 · easy B -2" (the terminal's line), from the
 * session the server sums up ({played, deals, names, totals}). */
export function scoreLine(series) {
  return fmt(_("Score after deal {k} of {n}: {score}"), { k: series.played, n: series.deals, score: scoreText(series.names, series.totals) });
}
