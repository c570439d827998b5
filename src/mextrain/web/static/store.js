// What the page keeps in this browser: its local storage, where it can be had. A browser
// that blocks this site's data throws on the mere reading of `window.localStorage`, and
// a full storage (or a private window's) throws on a write; the page must work all the
// same. A value that could not be written is held here for the page's life instead (a
// seat's token: the table goes on in this page, and its connection, dropped and made
// again, still finds the seat), and read back before the browser's: it is the newer (and
// the browser's, older, is removed).

const held = new Map();

function storage() {
  try { return window.localStorage || null; } catch { return null; }
}

// The value kept under `key`, or null.
export function get(key) {
  if (held.has(key)) return held.get(key);
  try {
    const kept = storage();
    return kept ? kept.getItem(key) : null;
  } catch { return null; }
}

// Keep `value` (a string) under `key`. True when the browser keeps it (it outlives a
// reload), false when only this page does.
export function set(key, value) {
  const text = String(value);
  try {
    const kept = storage();
    if (kept) {
      kept.setItem(key, text);
      held.delete(key);
      return true;
    }
  } catch { /* held below */ }
  held.set(key, text);
  // the browser's older value goes (a removal needs no room): a reload would bring it back,
  // a choice changed since, as if it were still the player's
  try {
    const kept = storage();
    if (kept) kept.removeItem(key);
  } catch { /* none to remove */ }
  return false;
}

export function remove(key) {
  held.delete(key);
  try {
    const kept = storage();
    if (kept) kept.removeItem(key);
  } catch { /* nothing kept there to remove */ }
}

// Whether the value under `key` is held by this page alone: the browser would not keep it,
// and a reload loses it.
export function heldHere(key) {
  return held.has(key);
}

// Every key kept, in the browser or in this page.
export function keys() {
  const all = new Set(held.keys());
  try {
    const kept = storage();
    if (kept) for (let i = 0; i < kept.length; i++) all.add(kept.key(i));
  } catch { /* only what this page holds */ }
  return [...all];
}
