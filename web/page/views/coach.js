// The coach on the page (yacht.api.explain_query): the "Why?" button beside the verdict's, which
// opens the panel under the verdict (data-testid="explanation") for the advice's best option, and
// the "Why?" disclosure of every option (data-testid="option-why"). Each shows what the option
// plays for, the chance of the upper bonus and why the best beats the other option, in the command
// line's words; views/coach-lines.js draws them (its header lists their data-testids). With a goal (o=, t=) ranked by its chance, the
// aims under the goal's play come first (the line's data-play="goal"), then the average play's
// with the bonus chance (data-play="average"). The explanation is asked for only when one is
// opened (store.explanation holds it: {query, loading} | {query, result} | {query, error}). In a
// practice game the Why? button explains the last choice instead (views/coach-decision.js).

import { $, el } from "./dom.js";
import { readQuery } from "../model/formats.js";
import { explainQuery } from "../state/coach.js";
import { store } from "../state/store.js";
import { t } from "../texts/texts.js";
import { aimsLine, optionKey, pending, whyLine } from "./coach-lines.js";
import { renderPracticeWhy } from "./coach-decision.js";
import { aimedOptions } from "./goal.js";

let handlers = null;

/** The handlers the coach's controls call (main.js): optionWhy(key, open, draw) keeps an
 * option's Why? open or closed, retryExplanation() asks again after a failure. */
export function bindCoach(given) {
  handlers = given;
}

/** The Why? disclosure of one option (views/advice.js puts it in the option's item). */
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
  summary.addEventListener("click", () => handlers.optionWhy(key, !details.open, false));
  details.addEventListener("toggle", () => {
    if (!details.isConnected) return; // drawn again since: the new disclosure is the store's
    handlers.optionWhy(key, details.open); // drawn (renderCoach) and asked for
  });
  return details;
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
  if (pending(box, shown, () => handlers.retryExplanation())) return;
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

/** What `option` plays for: with a goal ranked by its chance, under the goal's play ("to win,
 * plays for …", "to reach 200, plays for …"), then under the average's with the bonus chance
 * ("on average, plays for …"); else the one line ("plays for …"). */
function playsFor(option, result) {
  const variant = result.variant;
  if (!option.goal_aims || store.aim !== "win") return [aimsLine(option, variant)];
  const target = readQuery(result.query).target;
  const measure = target === null ? "win" : "reach";
  return [aimsLine(option, variant, { goal: true, measure, target }), aimsLine(option, variant, { beside: true })];
}
