// What a language does to words that meet once a template is filled, as mextrain.i18n
// does on the server: Italian joins "su" and "il" ("sul treno messicano") and writes "ad"
// for "a" before an a ("tocca ad Anna"), French elides "de" before a vowel ("le train
// d'Émile", "d'Åsa", a name set apart by U+2068 included; not before y or h, which go
// either way). Words meet within the template's own text and where it
// meets a value, never inside a value: a name or a player's words stay as written.

const VOWEL = "[AEIOUÀÁÂÄÅÆÉÈÊËÌÍÎÏÒÓÔÖØŒÙÚÛÜaeiouàáâäåæéèêëìíîïòóôöøœùúûü]";
const A_END = /(?<![\p{L}\p{N}_])([Aa]) $/u;
const A_START = /^\u2068?[AÀÁÂÄÅaàáâäå]/u;
const SU_IL = /(?<![\p{L}\p{N}_])([Ss])u il(?![\p{L}\p{N}_])/gu;
const DE_VOWEL = new RegExp(`(?<![\\p{L}\\p{N}_])([Dd])e (\\u2068?)(?=${VOWEL})`, "gu");
const SU_END = /(?<![\p{L}\p{N}_])([Ss])u $/u;
const IL_START = /^il(?![\p{L}\p{N}_])/u;
const DE_END = /(?<![\p{L}\p{N}_])([Dd])e $/u;
const VOWEL_START = new RegExp(`^\\u2068?${VOWEL}`, "u");
const FIELD = /\{(\w+)\}/g;

// Words that meet within one piece of text.
export function contract(text, lang) {
  if (lang === "it") return text.replace(SU_IL, "$1ul");
  if (lang === "fr") return text.replace(DE_VOWEL, "$1'$2");
  return text;
}

// The same where a template's text meets the value put after it.
function join(literal, value, lang) {
  let m;
  if (lang === "it" && (m = literal.match(SU_END)) && IL_START.test(value)) {
    return [literal.slice(0, m.index) + m[1] + "ul", value.slice(2)];
  }
  if (lang === "it" && (m = literal.match(A_END)) && A_START.test(value)) {
    return [literal.slice(0, m.index) + m[1] + "d ", value];
  }
  if (lang === "fr" && (m = literal.match(DE_END)) && VOWEL_START.test(value)) {
    return [literal.slice(0, m.index) + m[1] + "'", value];
  }
  return [literal, value];
}

// A template with its {placeholders} filled; as it is if one is not given, so a broken
// translation shows as text (as on the server).
export function fill(template, params, lang) {
  let out = "";
  let last = 0;
  for (const m of template.matchAll(FIELD)) {
    if (!(m[1] in params)) return template;
    const value = String(params[m[1]]);
    const [literal, shown] = join(contract(template.slice(last, m.index), lang), value, lang);
    out += literal + shown;
    last = m.index + m[0].length;
  }
  return out + contract(template.slice(last), lang);
}
