// The trains a chosen tile may go on, brought into sight: on a phone the hand is pinned to
// the bottom of the screen, and with many seats it covers the last trains (the Mexican
// train among them). The page scrolls them up above the hand, never the highest of them out
// at the top while they all fit.

// How far to scroll (pixels; 0: not at all) so that the boxes ``targets`` ({top, bottom},
// as the screen has them) show above ``limit`` (the hand's top) with ``margin`` to spare:
// all of them when they fit; when they cannot, as many as fit from the topmost, if that
// brings one out from under the hand; else the nearest one under the hand.
export function revealBy(targets, limit, margin = 8) {
  const hidden = targets.filter((r) => r.bottom > limit);
  if (!hidden.length) return 0;
  const all = Math.max(...targets.map((r) => r.bottom)) - limit + margin;
  const room = Math.min(...targets.map((r) => r.top)) - margin;  // the topmost kept in sight
  const nearest = Math.min(...hidden.map((r) => r.bottom)) - limit + margin;
  const keep = Math.min(all, room);
  return Math.max(0, keep >= nearest ? keep : nearest);
}

export function revealTargets() {
  const hand = document.querySelector(".hand-area");
  const trains = [...document.querySelectorAll(".train.target")].map((tr) => tr.getBoundingClientRect());
  if (!hand || !trains.length) return;
  const by = revealBy(trains, hand.getBoundingClientRect().top);
  if (by > 0) window.scrollBy({ top: by });
}

// A phone's trains run on sideways (their tiles big enough to count twelve pips) and
// scroll: each shows its newest tiles and open end when it has grown, and is left where
// its reader scrolled it otherwise.
export function showTrainEnds() {
  for (const tiles of document.querySelectorAll(".board .train-tiles")) {
    const count = String(tiles.childElementCount);
    if (tiles.dataset.shown !== count) {
      tiles.dataset.shown = count;
      tiles.scrollLeft = tiles.scrollWidth;
    }
  }
}
