// The coach on the page (yacht.api.explain_query): the "Why?" button beside the verdict's, which
// opens the panel under the verdict (data-testid="explanation") for the advice's best option, and
// the "Why?" disclosure of every option (data-testid="option-why"). Each shows what the option
// plays for (data-testid="aim": data-category, data-p, data-mean-points), the chance of the upper
// bonus (data-testid="bonus-chance": data-p) and why the best beats the other option
// (data-testid="why", its terms data-testid="why-term": data-kind, data-category, data-best,
// data-other); view-coach-lines.js draws them. With a goal (o=, t=) ranked by its chance, the
// aims under the goal's play come first (the line's data-play="goal"), then the average play's
// with the bonus chance (data-play="average"). The explanation is asked for only when one is
// opened (store.explanation holds it: {query, loading} | {query, result} | {query, error}). In a
// practice game the Why? button explains the last choice instead (view-coach-decision.js).

import { $, el } from "./dom.js";
import { readQuery } from "./formats.js";
import { currentQuery, practising, store } from "./store.js";
import { t } from "./texts.js";
import { aimsLine, optionKey, pending, whyLine } from "./view-coach-lines.js";
import { renderPracticeWhy, togglePracticeWhy } from "./view-coach-decision.js";
import { aimedOptions } from "./view-goal.js";

let handlers = null;

/** The handlers the coach's controls call (main.js): explain() asks for the explanation of the
 * position shown (again after a failure). */
export function bindCoach(given) {
  handlers = given;
}

/** The position query whose options the verdict shows (the query to explain), or null when no
 * option is shown (before the roll, a game over or waiting for dice, an error, a practice game). */
export function explainQuery() {
  const shown = store.shown;
  if (practising() || !shown || shown.error || !shown.result) return null;
  if (shown.query !== currentQuery() && shown.query !== store.link) return null;
  if (store.game && store.view?.phase !== "choice") return null;
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

/** Open or close the panel under the verdict (the Why? button); in practice, the last choice's. */
export function toggleWhy() {
  if (practising()) return togglePracticeWhy();
  store.whyOpen = !store.whyOpen;
  renderCoach();
  if (store.whyOpen) handlers.explain();
}

/** The Why? disclosure of one option (view-advice.js puts it in the option's item). */
export function optionWhy(option) {
  const key = optionKey(option);
  const query = explainQuery();
  const open = query !== null && store.whyOptions.query === query && store.whyOptions.keys.has(key);
  const summary = el("summary", { text: t("why") });
  const details = el(
    "details",
    { class: "option-why", "data-testid": "option-why", "data-key": key, open },
    summary,
    el("div", { class: "why-body" }),
  );
  // The store learns of a tap (or Enter) at once: the toggle event comes a task later, and a list
  // drawn again meanwhile is drawn from the store (the tap would be undone).
  summary.addEventListener("click", () => keepOptionWhy(key, !details.open));
  details.addEventListener("toggle", () => {
    if (!details.isConnected) return; // drawn again since: the new disclosure is the store's
    keepOptionWhy(key, details.open);
    drawBody(details);
    if (details.open) handlers.explain();
  });
  return details;
}

/** Keep in the store whether the option `key`'s Why? is open, for the position explained now. */
function keepOptionWhy(key, open) {
  const now = explainQuery();
  if (store.whyOptions.query !== now) store.whyOptions = { query: now, keys: new Set() };
  if (open) store.whyOptions.keys.add(key);
  else store.whyOptions.keys.delete(key);
}

/** Draw the Why? button, the panel and the bodies of the options' disclosures from the store. */
export function renderCoach() {
  const button = $("#why");
  const panel = $("#explanation");
  const query = explainQuery();
  const open = store.whyOpen && query !== null;
  panel.hidden = !open;
  // A practice game hides the advice, and so its explanation: there Why? explains the last choice.
  if (!renderPracticeWhy()) {
    button.disabled = query === null;
    button.setAttribute("aria-controls", "explanation");
    button.setAttribute("aria-expanded", String(open));
  }
  if (open) fillBody(panel, null);
  for (const details of document.querySelectorAll("#options [data-testid=option-why]")) {
    drawBody(details);
  }
}

/** An option's disclosure: its explanation while open; closed, empty (and never busy). */
function drawBody(details) {
  const body = details.querySelector(".why-body");
  if (details.open) return fillBody(body, details.dataset.key);
  body.removeAttribute("aria-busy");
  body.replaceChildren();
}

/** Fill `box` with the explanation of the option `key` (null: the best, against the next best),
 * or the busy state, or the error with Retry. */
function fillBody(box, key) {
  const query = explainQuery();
  const shown = store.explanation?.query === query ? store.explanation : null;
  if (pending(box, shown, () => handlers.explain())) return;
  const { options, why } = shown.result;
  const best = options[0];
  const verdict = aimedOptions(shown.result).ranked[0]?.option ?? best;
  if (key === null && optionKey(verdict) !== optionKey(best)) {
    // The verdict shows another option than the explanation's first (a goal's options in the
    // order of their average): what it plays for, and no "why" naming another best.
    box.replaceChildren(...playsFor(verdict, shown.result));
    box.dataset.key = optionKey(verdict);
    return;
  }
  const option = key === null ? best : options.find((o) => optionKey(o) === key);
  if (!option) return box.replaceChildren();
  const against = optionKey(option) === optionKey(best) ? (options[1] ?? null) : option;
  box.replaceChildren(
    ...playsFor(option, shown.result),
    against ? whyLine(best, against, against === option ? option.why : why) : el("p", { text: t("coachOnly") }),
  );
  box.dataset.key = optionKey(option);
}

/** What `option` plays for: with a goal ranked by its chance, under the goal's play ("To win,
 * plays for …", "To reach 200, plays for …"), then under the average's with the bonus chance
 * ("On average, plays for …"); else the one line. */
function playsFor(option, result) {
  const variant = result.variant;
  if (!option.goal_aims || store.aim !== "win") return [aimsLine(option, variant)];
  const target = readQuery(result.query).target;
  const label = target === null ? t("playsToWin") : t("playsToReach", target);
  return [aimsLine(option, variant, { label, goal: true }), aimsLine(option, variant, { label: t("playsOnAverage") })];
}
