// The page's words in the reader's language, from lukfu's gettext catalogues (/api/i18n/LANG).
// Mark every message as the Python code does: _("…"), ngettext("…", "…", n), pgettext("ctx", "…"),
// with double-quoted literals, so `python -m lukfu_solver.i18n_catalogues extract` finds them.

const state = { lang: "en", plural: null, messages: {} };

/** Load the catalogue of `code` (the messages the page uses and the plural rule as a table). */
export async function loadLanguage(code, fetchJson) {
  const data = await fetchJson(`/api/i18n/${encodeURIComponent(code)}`);
  state.lang = data.lang;
  state.plural = data.plural;
  state.messages = data.messages || {};
  document.documentElement.lang = data.lang;
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

/** A number with its sign: +4, -2, 0; with `decimals`: +1.25. */
export function signed(x, decimals = 0) {
  if (decimals) {
    const r = Number(x.toFixed(decimals));
    return (r >= 0 ? "+" : "") + (r === 0 ? 0 : r).toFixed(decimals);
  }
  return x > 0 ? `+${x}` : String(x);
}

/** A share as a whole percentage: 0.237 -> "24%". */
export function percent(p) {
  return `${Math.round(p * 100)}%`;
}
