// The page's words in the reader's language, from lukfu's gettext catalogues (/api/i18n/LANG).
// Mark every message as the Python code does: _("…"), ngettext("…", "…", n), pgettext("ctx", "…"),
// with double-quoted literals, so `python -m lukfu_solver.i18n_catalogues extract` finds them.

const state = { lang: "en", plural: null, messages: {}, number: { group: ",", point: ".", fewest: 4, indian: false, percent: "{n}%" } };

/** Load the catalogue of `code` (the messages the page uses and the plural rule as a table). */
export async function loadLanguage(code, fetchJson) {
  const data = await fetchJson(`/api/i18n/${encodeURIComponent(code)}`);
  useCatalogue(data);
  document.documentElement.lang = data.lang;
}

/** Speak the language of a catalogue as /api/i18n/LANG serves it ({lang, plural, number, messages}). */
export function useCatalogue(data) {
  state.lang = data.lang;
  state.plural = data.plural;
  state.messages = data.messages || {};
  if (data.number) state.number = data.number;
}

/** The language in use. */
export function language() {
  return state.lang;
}

/** `message` in the language in use (itself when English or not translated). */
export function _(message) {
  const t = state.messages[message];
  return typeof t === "string" && t ? t : message;
}

function pluralIndex(n) {
  const table = state.plural;
  const k = Math.abs(Math.trunc(n));
  if (!table) return k === 1 ? 0 : 1;
  return k < 200 ? table[k] : table[100 + (k % 100)];
}

/** The form of a counted message for `n`, by the language's plural rule. */
export function ngettext(singular, plural, n) {
  const forms = state.messages[singular];
  if (Array.isArray(forms) && forms.length) {
    const i = pluralIndex(n);
    return forms[Math.min(i, forms.length - 1)];
  }
  return Math.abs(n) === 1 ? singular : plural;
}

/** `message` translated in `context` (one English word, two senses). */
export function pgettext(context, message) {
  const t = state.messages[context + "\u0004" + message];
  return typeof t === "string" && t ? t : message;
}

/** Fill `{name}` fields as Python's str.format does (the catalogues keep the same fields). */
export function fmt(text, fields) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in fields ? String(fields[name]) : all));
}

/** A glossary word (the catalogues' context "term"). */
export function term(word) {
  return pgettext("term", word);
}

/**
 * `x` as the reader's language writes it (lukfu's i18n.number): `decimals` places, the language's
 * decimal and grouping marks (20,000 · 20 000 · 20.000; Indian grouping in Hindi), a "+" before a
 * positive number with `sign`, never "-0".
 */
export function number(x, decimals = 0, sign = false) {
  const { group, point, fewest, indian } = state.number;
  const text = Math.abs(x).toFixed(decimals);
  const [digits, part] = text.split(".");
  let whole = digits;
  if (whole.length >= fewest) {
    if (indian) {
      const head = whole.slice(0, -3);
      const pairs = [];
      for (let i = head.length; i > 0; i -= 2) pairs.unshift(head.slice(Math.max(0, i - 2), i));
      whole = [...pairs, whole.slice(-3)].join(group);
    } else {
      whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
    }
  }
  const out = whole + (part ? point + part : "");
  if (Number(text) === 0) return (sign ? "+" : "") + out;
  return (x < 0 ? "-" : sign ? "+" : "") + out;
}

/** Points with their sign, as lukfu's render.signed: +4, -2, 0; with `decimals` +1.25, +0.00
 * (in the reader's way: +1,25). */
export function signed(x, decimals = 0) {
  const text = number(x, decimals, true);
  return decimals || text !== "+0" ? text : "0";
}

/** A probability or a share of sampled deals as a whole percentage, as lukfu's i18n.percent
 * writes it: 24% (24 % in Russian and Spanish), never 0% or 100% but "<1%" and ">99%". */
export function percent(p) {
  const form = state.number.percent || "{n}%";
  const whole = Number((Math.max(0, Math.min(1, p)) * 100).toFixed(0));
  if (whole < 1) return "<" + fmt(form, { n: 1 });
  if (whole > 99) return ">" + fmt(form, { n: 99 });
  return fmt(form, { n: whole });
}

/** Seconds with one decimal in the language's words ("0.4 s", "0,4 с"), as lukfu's i18n.seconds. */
export function seconds(x) {
  return fmt(_("{seconds} s"), { seconds: number(x, 1) });
}
