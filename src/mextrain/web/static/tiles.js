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

function half(n, x, big) {
  if (big || n > 12) {
    return html`<text x=${x + 0.5} y="0.56" font-size="0.62" text-anchor="middle"
      dominant-baseline="middle" font-weight="700" fill=${COLOURS[n % 13]}>${n}</text>`;
  }
  const r = n >= 10 ? 0.075 : 0.09;
  return LAYOUTS[n].map(([px, py]) =>
    html`<circle cx=${x + 0.08 + px * 0.84} cy=${0.08 + py * 0.84} r=${r} fill=${COLOURS[n]} />`);
}

// A tile "a-b", drawn a on the left (or top when vertical).
export function Tile({ tile, big = false, vertical = false, cls = "", label }) {
  const [a, b] = parseTile(tile);
  const view = vertical ? "0 0 1 2" : "0 0 2 1";
  const body = html`
    <rect x="0.02" y="0.02" width="1.96" height="0.96" rx="0.12" class="tile-face" />
    <line x1="1" y1="0.12" x2="1" y2="0.88" class="tile-bar" />
    ${half(a, 0, big)}${half(b, 1, big)}`;
  return html`<svg class=${"tile " + (vertical ? "vertical " : "") + cls} viewBox=${view}
      role="img" aria-label=${label || tile}>
    ${vertical ? html`<g transform="rotate(90) translate(0 -1)">${body}</g>` : body}
  </svg>`;
}
