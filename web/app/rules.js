// Rules (from rules.json, written by the site build from yacht.rules) ------------------------

import { sortedKey } from "./dice.js";
import { store } from "./store.js";

/** Whether `name` (outside text: a link's v=) names a rule variant. Only the object's own keys
 * count: "toString" or "__proto__" are not variants. */
export const knownVariant = (name) => typeof name === "string" && Object.hasOwn(store.rules.variants, name);
export const nCategories = () => store.rules.categories.en.length;
export const categoryName = (c) => store.rules.categories[store.language][c];
export const possible = (variant, c) => store.rules.variants[variant].possible[c];
/** Points the five dice score in category c (raw, as written on the sheet). */
export const pointsOf = (dice, c, variant) => store.rules.variants[variant].points[sortedKey(dice)][c];

export function sheetTotals(sheet) {
  const upper = sheet.slice(0, store.rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const lower = sheet.slice(store.rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const bonus = upper >= store.rules.bonus.threshold ? store.rules.bonus.points : 0;
  const upperFull = sheet.slice(0, store.rules.upper).every((v) => v !== null);
  return { upper, bonus, upperFull, total: upper + lower + bonus };
}
