export const N_DICE = 5;
export const MAX_ROLLS = 3;
export const ascending = (dice) => [...dice].sort((a, b) => a - b);
export const sortedKey = (dice) => ascending(dice).join("");

/** Whether the multiset `part` is contained in `dice`. */
export function contains(dice, part) {
  const rest = [...dice];
  return part.every((d) => {
    const i = rest.indexOf(d);
    if (i < 0) return false;
    rest.splice(i, 1);
    return true;
  });
}

/** For each die, whether it is one of the kept ones (each kept die matched once, first first). */
export function keptMask(dice, keep) {
  const left = [...keep];
  return dice.map((d) => {
    const i = left.indexOf(d);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/** The kept dice in the order they were entered. */
export function keptInOrder(dice, keep) {
  const mask = keptMask(dice, keep);
  return dice.filter((_, i) => mask[i]);
}

/** A uniformly random face 1–6 from the browser's cryptographic generator. */
export function randomFace() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte);
  while (byte[0] >= 252); // 252 = 42 × 6: no face is favoured
  return (byte[0] % 6) + 1;
}
