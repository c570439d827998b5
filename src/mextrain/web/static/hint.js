// The hint's best move is the one the search tried most. A runner-up shown with as high a
// chance (as the page rounds it) is within the search's noise: the hint says the call is
// close rather than look as if it contradicted itself.
import { wholePercent } from "./percent.js";

const percent = (h) => wholePercent(h.win_probability);

export function closeCall(hint) {
  if (typeof hint.win_probability !== "number") return false;
  const others = (hint.moves || []).slice(1, 4).filter((h) => typeof h.win_probability === "number");
  return others.some((h) => percent(h) >= percent(hint));
}
