// Every percentage the page shows, as the reader's language writes it ("15%"; French and
// Finnish "15 %", a no-break space before the sign) and rounded as Intl.NumberFormat
// rounds it: the share as its shortest decimal writes it, a half away from zero (0.145 is
// 15%, where Math.round(100 * 0.145), 14.499…, said 14). The terminal writes them the
// same (mextrain.i18n's Translator.percent).

const formats = new Map();

function format(lang) {
  if (!formats.has(lang)) {
    formats.set(lang, new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }));
  }
  return formats.get(lang);
}

// A share (0 to 1) as a whole percentage in ``lang``: "15%", "15 %".
export const percent = (share, lang) => format(lang).format(share);

// The whole number a share shows as (15 for 0.145), the same in every language.
export const wholePercent = (share) => Number(format("en").formatToParts(share)
  .filter((part) => part.type === "integer").map((part) => part.value).join(""));
