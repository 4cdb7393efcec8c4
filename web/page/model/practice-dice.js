// The dice of a practice game, as yacht.play.practice_dice defines them (held to it by the golden
// cases of tests/golden/format_cases.py): a seed (1–6 characters 0-9a-z, base 36) gives the five
// faces of every (player, turn, roll); a roll keeps the kept dice and throws the first faces.

export const ME = 1;
export const OPPONENT = 2;
const SEED_LENGTH = 6;
const SEED_LIMIT = 36 ** SEED_LENGTH;

/** The seed a `p` value names, or null when it is not 1–6 characters 0-9a-z. */
export function parseSeed(text) {
  if (typeof text !== "string" || !/^[0-9a-z]{1,6}$/.test(text)) return null;
  return parseInt(text, 36);
}

/** The canonical text of a seed (base 36, no leading zeros). */
export const formatSeed = (seed) => seed.toString(36);

/** A new seed, from the browser's randomness. */
export function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return ((words[0] % 2 ** 21) * 2 ** 32 + words[1]) % SEED_LIMIT;
}

/** lowbias32: the 32-bit integer hash of yacht.play.practice_dice._mix. */
function mix(x) {
  x >>>= 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** The five faces (1–6) of (player, turn, roll) for `seed`. */
export function faces(seed, player, turn, roll) {
  const base = mix(seed % 2 ** 32);
  const out = [];
  for (let i = 0; i < 5; i++) {
    const key = ((player * 16 + turn) * 4 + roll) * 8 + i;
    out.push(1 + (mix(base + Math.imul(key, 0x9e3779b9)) % 6));
  }
  return out;
}

/** The dice after roll `roll` of `turn` with `kept` (in the order shown) kept. */
export const practiceRoll = (seed, player, turn, roll, kept = []) => [
  ...kept,
  ...faces(seed, player, turn, roll).slice(0, 5 - kept.length),
];
