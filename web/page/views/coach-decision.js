// The coach on a decision already made: a practice game's last choice and each decision of the
// review that was not the best. Each explains why the best beats the choice, from
// yacht.api.explain_decision_query (the numbers `python -m yacht review --json --explain` gives
// that decision): what the best and the choice play for and their bonus chances (one line each,
// data-option "best" and "chosen"; graded by a goal, a line under the goal's play first), and the
// terms of why (views/coach-lines.js draws them, with the coach's testids). With a goal the
// review's best is the goal's; the coach's is the best average, and it is named so. A choice that was the best gets no Why? (nothing to explain against).
//
// Practice: the Why? button beside Roll (#why) opens the panel under the buttons
// (data-testid="practice-why", data-query: the decision's position), so nothing above it moves;
// it closes with the next choice. Review: a Why? disclosure under each such decision
// (data-testid="review-why", data-query, data-index). The explanation is asked for only when one
// is opened (handlers.reviewWhy; the Why? button: togglePracticeWhy); store.decisionWhy holds the answers.

import { $, el } from "./dom.js";
import { readQuery } from "../model/formats.js";
import { decisionKey, practiceChoice } from "../state/coach.js";
import { practising, store } from "../state/store.js";
import { t } from "../texts/texts.js";
import { aimsLine, optionKey, optionWords, pending, whyLine } from "./coach-lines.js";

let handlers = null;

/** The handlers the decisions' Why? call (main.js): reviewWhy(record, index, key, open) and
 * retryDecision(record, index). */
export function bindCoachDecision(given) {
  handlers = given;
}

/** In a practice game: the Why? button and its panel, from the store (true); else the panel
 * hidden (false: the position's coach has the button). */
export function renderPracticeWhy() {
  const panel = $("#practice-why");
  if (!practising()) {
    panel.hidden = true;
    panel.replaceChildren();
    return false;
  }
  const button = $("#why");
  const choice = practiceChoice();
  const open = choice !== null && store.practiceWhy === choice.record;
  button.disabled = choice === null;
  button.setAttribute("aria-controls", "practice-why");
  button.setAttribute("aria-expanded", String(open));
  panel.hidden = !open;
  if (open) {
    panel.dataset.query = choice.decision.query;
    fillDecision(panel, choice);
  } else {
    panel.removeAttribute("data-query");
    panel.replaceChildren();
  }
  return true;
}

/** The Why? disclosure of a review decision (`list`: the list it is drawn in, so that the same
 * decision opens on its own in each), or "" when the decision was the best. */
export function reviewWhy(decision, index, list) {
  if (decision.grade.best) return "";
  const record = store.reviewShown.query;
  const key = `${list}:${index}`;
  const open = store.reviewWhy.record === record && store.reviewWhy.keys.has(key);
  const details = el(
    "details",
    { class: "decision-why", "data-testid": "review-why", "data-query": decision.query, "data-index": index, open },
    el("summary", { text: t("why") }),
    el("div", { class: "why-body" }),
  );
  details.addEventListener("toggle", () => handlers.reviewWhy(record, index, key, details.open));
  return details;
}

/** Redraw every decision's explanation shown (an answer came, or a failure). */
export function renderDecisionWhys() {
  renderPracticeWhy();
  for (const details of document.querySelectorAll("#review [data-testid=review-why]")) drawReviewWhy(details);
}

/** A review decision's disclosure: its explanation while open; closed, empty. */
function drawReviewWhy(details) {
  const body = details.querySelector(".why-body");
  const review = store.reviewShown;
  const index = Number(details.dataset.index);
  const decision = review?.result?.decisions[index];
  if (!details.open || !decision) {
    body.removeAttribute("aria-busy");
    body.replaceChildren();
    return;
  }
  fillDecision(body, { record: review.query, index, decision });
}

/** Fill `box` with why the best beats the choice (or the busy state, or the error with Retry). */
function fillDecision(box, { record, index, decision }) {
  const shown = store.decisionWhy.get(decisionKey(record, index)) ?? null;
  if (pending(box, shown, () => handlers.retryDecision(record, index))) return;
  const answer = shown.result.decision;
  const { best, chosen, why } = answer;
  const variant = shown.result.variant;
  // With a goal the best shown beside the grade is the goal's: the coach's is named as the average's.
  const w = decision.winning ?? null;
  const goalBest = w && decision.grade.measure !== "score" ? w.best : decision.best;
  const average = optionKey(goalBest) !== optionKey(best);
  const yours = lines(chosen, variant, answer, t("coachYours", optionWords(chosen)), "chosen");
  if (!why?.shown.length) {
    // The choice is the best average's too: it gave up only the goal's chance.
    box.replaceChildren(...yours, el("p", { class: "why-note", text: t("coachAlsoAverage") }));
    return;
  }
  const prefix = t(average ? "coachBestAverage" : "coachBest", optionWords(best));
  box.replaceChildren(...lines(best, variant, answer, prefix, "best"), ...yours, whyLine(best, chosen, why));
}

/** An option's aims lines in a decision's explanation, after `prefix` ("Best (Keep 4 4): "): graded
 * by a goal, under the goal's play first (option.goal_aims), then under the average's. */
function lines(option, variant, decision, prefix, which) {
  const attrs = { "data-option": which };
  const average = aimsLine(option, variant, { prefix, attrs, beside: Boolean(option.goal_aims) });
  if (!option.goal_aims) return [average];
  const measure = decision.grade.measure;
  const target = readQuery(decision.query).target;
  return [aimsLine(option, variant, { goal: true, measure, target, prefix, attrs }), average];
}
