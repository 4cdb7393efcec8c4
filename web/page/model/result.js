// A finished game's result: who won and both totals (as yacht.play.review.Result), and its words.
// Pure: from the two sheets, with the rules' totals (upper bonus included).

import { sheetTotals } from "./rules.js";
import { t } from "../texts/texts.js";

/** {outcome: "win" | "loss" | "draw", mine, theirs} when both sheets are full, else null (no
 * opponent, or a turn still to play). */
export function gameResult(sheet, opponent) {
  if (!opponent || sheet.includes(null) || opponent.includes(null)) return null;
  const mine = sheetTotals(sheet).total;
  const theirs = sheetTotals(opponent).total;
  return { outcome: mine > theirs ? "win" : mine < theirs ? "loss" : "draw", mine, theirs };
}

/** "You won 184–148", "Rival won 162–150", "Draw 170–170": the winner's total first. */
export const resultText = (result) => t(RESULT_KEYS[result.outcome], result.mine, result.theirs);

const RESULT_KEYS = { win: "resultWin", loss: "resultLoss", draw: "resultDraw" };

/** The data attributes of a result's element: data-outcome, data-mine, data-theirs. */
export const resultData = (result) => ({
  "data-outcome": result.outcome,
  "data-mine": String(result.mine),
  "data-theirs": String(result.theirs),
});
