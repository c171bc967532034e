// Cards as the page draws them: parsed from lukfu's notation (C135S79 …), shown by suit with
// the suit named and Old cards marked (a star and a gold edge, as the terminal marks 9*).

import { _, fmt, term } from "./i18n.js";

export const SUITS = "CSMT";
const SUIT_NAMES = ["Coins", "Strings", "Myriads", "Tens"];

/** The name of suit `s` (0-3) in the reader's language. */
export function suitName(s) {
  return [_("Coins"), _("Strings"), _("Myriads"), _("Tens")][s] || SUIT_NAMES[s];
}

/** Cards of a card list's text ("C135S79") as codes "C1", "C3", … in suit and rank order. */
export function parseCards(text) {
  const out = [];
  let suit = null;
  for (const ch of text || "") {
    if (SUITS.includes(ch)) suit = ch;
    else if (ch >= "1" && ch <= "9" && suit) out.push(suit + ch);
  }
  return out;
}

/** The cards of a play's text: "S345" and "C5S5M5" by parseCards, "xC2M4" without its x, claim none. */
export function playCards(text) {
  if (!text || text === "claim") return [];
  return parseCards(text.startsWith("x") ? text.slice(1) : text);
}

/** Cards as their list's text, canonical ("C1", "C3" -> "C13"). */
export function formatCards(codes) {
  const sorted = [...codes].sort((a, b) => SUITS.indexOf(a[0]) - SUITS.indexOf(b[0]) || a[1] - b[1]);
  let out = "";
  let suit = null;
  for (const c of sorted) {
    if (c[0] !== suit) {
      suit = c[0];
      out += suit;
    }
    out += c[1];
  }
  return out;
}

/** One card as an element: rank, suit letter and name; `old` marks it, `back` shows its back. */
export function cardElement(code, { old = false, back = false, tag = "span", small = false } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (small ? " small" : "");
  if (back) {
    el.classList.add("back");
    el.setAttribute("aria-label", _("a card face down"));
    return el;
  }
  const s = SUITS.indexOf(code[0]);
  el.classList.add(`suit-${code[0]}`);
  if (old) el.classList.add("old");
  el.dataset.card = code;
  const rank = document.createElement("b");
  rank.className = "rank";
  rank.textContent = code[1] + (old ? "*" : "");
  const letter = document.createElement("i");
  letter.className = "letter";
  letter.textContent = code[0];
  const name = document.createElement("small");
  name.className = "suit";
  name.textContent = suitName(s);
  el.append(letter, rank, name);
  const words = old ? _("{card}, an Old card") : "{card}";
  el.setAttribute("aria-label", fmt(words, { card: `${code} ${suitName(s)} ${code[1]}` }));
  el.title = old ? fmt(_("{card}, an Old card"), { card: code }) : code;
  return el;
}

/** A play as a row of cards (face-down discards as backs). */
export function playElement(text, { olds = "", small = true } = {}) {
  const row = document.createElement("span");
  row.className = "play";
  if (/^x\d+$/.test(text)) {
    for (let i = 0; i < Number(text.slice(1)); i++) row.append(cardElement("", { back: true, small }));
    row.setAttribute("aria-label", fmt(_("{n} cards face down"), { n: text.slice(1) }));
    return row;
  }
  if (text === "claim") {
    row.textContent = term("claim");
    return row;
  }
  const old = new Set(parseCards(olds));
  for (const c of playCards(text)) row.append(cardElement(c, { old: old.has(c), small }));
  if (text.startsWith("x")) row.classList.add("discarded");
  return row;
}

/** Cards grouped by suit under the suits' names: the hand as lukfu shows it. */
export function suitGroups(codes) {
  const groups = [[], [], [], []];
  for (const c of codes) groups[SUITS.indexOf(c[0])].push(c);
  return groups;
}

/** The Old-card legend, shown beside Old cards. */
export function legend() {
  const p = document.createElement("p");
  p.className = "legend";
  const mark = document.createElement("b");
  mark.className = "old-mark";
  mark.textContent = "9*";
  p.append(mark, document.createTextNode(_(" an Old card: no card the others hold can beat it")));
  return p;
}
