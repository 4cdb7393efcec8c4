// Rules (from rules.json, written by the site build from yacht.core.rules): set once by the page
// (setRules) when it has loaded; every function reads them from here, not from the store.

import { sortedKey } from "./dice.js";
import { currentLanguage } from "../texts/texts.js";

let rules = null;

export function setRules(value) {
  rules = value;
}

export const defaultVariant = () => rules.default_variant;
/** Whether `name` (outside text: a link's v=) names a rule variant. Only the object's own keys
 * count: "toString" or "__proto__" are not variants. */
export const knownVariant = (name) => typeof name === "string" && Object.hasOwn(rules.variants, name);
export const nCategories = () => rules.categories.en.length;
export const categoryName = (c) => rules.categories[currentLanguage()][c];
export const possible = (variant, c) => rules.variants[variant].possible[c];
/** Points the five dice score in category c (raw, as written on the sheet). */
export const pointsOf = (dice, c, variant) => rules.variants[variant].points[sortedKey(dice)][c];

export function sheetTotals(sheet) {
  const upper = sheet.slice(0, rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const lower = sheet.slice(rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const bonus = upper >= rules.bonus.threshold ? rules.bonus.points : 0;
  const upperFull = sheet.slice(0, rules.upper).every((v) => v !== null);
  return { upper, bonus, upperFull, total: upper + lower + bonus };
}
