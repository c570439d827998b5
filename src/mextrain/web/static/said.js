// What a screen reader is told as the game goes: two live regions, used in turn. A region
// whose words do not change is not read out again, so the same words twice in a row (two
// draws, "Bot 2: draws", or the same tile chosen twice that fits no train) were told once:
// each message goes into the region not used last, and the other is emptied (an emptied
// region says nothing), so the region that gets the words always had none before.

export const SILENT = Object.freeze({ texts: Object.freeze(["", ""]), next: 0 });

// The two regions' words once ``words`` is said (``now``: as they were, SILENT at first).
export function say(now, words) {
  const texts = ["", ""];
  texts[now.next] = words;
  return { texts, next: 1 - now.next };
}
