// What a language does to words that meet once a template is filled, as mextrain.i18n
// does on the server: Italian joins "su" and "il" ("sul treno messicano"), French elides
// "de" before a vowel ("le train d'Émile", a name set apart by U+2068 included; not before
// y or h, which go either way).

const SU_IL = /\b([Ss])u il\b/g;
const DE_VOWEL = /(^|[^\p{L}])([Dd])e (\u2068?)(?=[AEIOUÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouàâæéèêëîïôœùûü])/gu;

export function contract(text, lang) {
  if (lang === "it") return text.replace(SU_IL, "$1ul");
  if (lang === "fr") return text.replace(DE_VOWEL, "$1$2'$3");
  return text;
}
