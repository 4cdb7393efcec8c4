// What the coach is asked about, derived from the store: the position whose options the verdict
// shows, whether its explanation is wanted (a Why? is open), the practice game's last choice to
// explain, and where a decision's explanation is kept.

import { formatGame } from "../model/formats.js";
import { currentQuery, practising, store } from "./store.js";

/** The position query whose options the verdict shows (the query to explain), or null when no
 * option is shown (before the roll, a game over or waiting for dice, an error, a practice game). */
export function explainQuery() {
  const shown = store.shown;
  if (practising() || !shown || shown.error || !shown.result) return null;
  if (shown.query !== currentQuery() && shown.query !== store.link) return null;
  if (store.game && store.stage?.phase !== "choice") return null;
  const game = shown.action === "game";
  const result = game ? shown.result.advice : shown.result;
  if (!result || result.over || !result.roll || !result.options?.length) return null;
  return game ? shown.result.position : shown.query;
}

/** Whether an explanation is wanted now: the panel or an option's disclosure is open. */
export function explanationWanted() {
  const query = explainQuery();
  return query !== null && (store.whyOpen || (store.whyOptions.query === query && store.whyOptions.keys.size > 0));
}

/** Where the answer for decision `index` of `record` is kept in store.decisionWhy. */
export const decisionKey = (record, index) => `${record}#${index}`;

/** The practice game's last choice, when its grade is shown and it was not the best:
 * {record, index, decision} (the grade's decision), else null. */
export function practiceChoice() {
  if (!practising() || store.practiceFeedback !== "each") return null;
  const grade = store.practiceGrade;
  const decision = grade?.result?.decision ?? null;
  if (!decision || grade.query !== formatGame({ ...store.game, keep: null }) || decision.grade.best) return null;
  return { record: grade.query, index: grade.count - 1, decision };
}
