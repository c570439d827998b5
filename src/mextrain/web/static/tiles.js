// Domino tiles as SVG, with real pips (0 to 12 per half) or, in large-number mode, digits.
import { html } from "./html.js";

// Pip centres in a unit square, per count: real double-12 layouts (3 columns x 4 rows
// from 10 up).
const C = 0.5, L = 0.22, R = 0.78, T = 0.2, B = 0.8;
const Q1 = 0.4, Q2 = 0.6, R1 = 0.14, R2 = 0.38, R3 = 0.62, R4 = 0.86;
const LAYOUTS = [
  [],
  [[C, C]],
  [[L, T], [R, B]],
  [[L, T], [C, C], [R, B]],
  [[L, T], [R, T], [L, B], [R, B]],
  [[L, T], [R, T], [C, C], [L, B], [R, B]],
  [[L, T], [L, C], [L, B], [R, T], [R, C], [R, B]],
  [[L, T], [L, C], [L, B], [R, T], [R, C], [R, B], [C, C]],
  [[L, T], [L, C], [L, B], [R, T], [R, C], [R, B], [C, T], [C, B]],
  [[L, T], [L, C], [L, B], [R, T], [R, C], [R, B], [C, T], [C, C], [C, B]],
  [[L, R1], [L, R2], [L, R3], [L, R4], [R, R1], [R, R2], [R, R3], [R, R4], [C, Q1 - 0.1], [C, Q2 + 0.1]],
  [[L, R1], [L, R2], [L, R3], [L, R4], [R, R1], [R, R2], [R, R3], [R, R4], [C, R1 + 0.06], [C, C], [C, R4 - 0.06]],
  [[L, R1], [L, R2], [L, R3], [L, R4], [R, R1], [R, R2], [R, R3], [R, R4], [C, R1], [C, R2], [C, R3], [C, R4]],
];
// Pip colours as on common coloured sets, one per number (readable on white).
const COLOURS = ["#222", "#0a7d8c", "#2e7d32", "#c62828", "#6a1b9a", "#1565c0", "#8d6e00",
  "#ad1457", "#4527a0", "#00695c", "#d84315", "#37474f", "#5d4037"];

export function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

// A tile as it would lie on a train whose open end is ``end``: the matching end first
// ("2-12" onto a 12 is "12-2"), as the trains and the last moves write it once laid.
export function laidOnto(tile, end) {
  const [a, b] = parseTile(tile);
  return b === end && a !== end ? `${b}-${a}` : tile;
}

// One half of a tile: its square's top-left corner at (x, y).
function half(n, x, y, big) {
  if (big || n > 12) {
    return html`<text x=${x + 0.5} y=${y + 0.56} font-size="0.62" text-anchor="middle"
      dominant-baseline="middle" font-weight="700" fill=${COLOURS[n % 13]}>${n}</text>`;
  }
  const r = n >= 10 ? 0.075 : 0.09;
  return LAYOUTS[n].map(([px, py]) =>
    html`<circle cx=${x + 0.08 + px * 0.84} cy=${y + 0.08 + py * 0.84} r=${r} fill=${COLOURS[n]} />`);
}

// A tile "a-b", drawn a on the left (or on top when vertical); digits stay upright.
export function Tile({ tile, big = false, vertical = false, cls = "", label }) {
  const [a, b] = parseTile(tile);
  const [w, h] = vertical ? [1, 2] : [2, 1];
  const [bx, by] = vertical ? [0, 1] : [1, 0];
  return html`<svg class=${"tile " + (vertical ? "vertical " : "") + cls} viewBox=${`0 0 ${w} ${h}`}
      role="img" aria-label=${label || tile} data-tile=${tile}>
    <rect x="0.02" y="0.02" width=${w - 0.04} height=${h - 0.04} rx="0.12" class="tile-face" />
    ${vertical
      ? html`<line x1="0.12" y1="1" x2="0.88" y2="1" class="tile-bar" />`
      : html`<line x1="1" y1="0.12" x2="1" y2="0.88" class="tile-bar" />`}
    ${half(a, 0, 0, big)}${half(b, bx, by, big)}
  </svg>`;
}
