// The coach on the page (yacht.api.explain_query): the "Why?" button beside the verdict's, which
// opens the panel under the verdict (data-testid="explanation") for the advice's best option, and
// the "Why?" disclosure of every option (data-testid="option-why"). Each shows what the option
// plays for (data-testid="aim": data-category, data-p, data-mean-points), the chance of the upper
// bonus (data-testid="bonus-chance": data-p) and why the best beats the other option
// (data-testid="why", its terms data-testid="why-term": data-kind, data-category, data-best,
// data-other). The explanation is asked for only when one is opened (store.explanation holds it:
// {query, loading} | {query, result} | {query, error}).

import { $, el } from "./dom.js";
import { categoryName, possible } from "./rules.js";
import { currentQuery, practising, store } from "./store.js";
import { t } from "./texts.js";
import { formatPercent } from "./texts-coach.js";
import { aimedOptions } from "./view-goal.js";
import { rankOptions } from "./view-verdict.js";

let handlers = null;

/** The handlers the coach's controls call (main.js): explain() asks for the explanation of the
 * position shown (again after a failure). */
export function bindCoach(given) {
  handlers = given;
}

/** What identifies an option in an answer (as yacht.api's _option_key). */
export const optionKey = (o) => (o.keep ? `k${o.keep.join("")}:${o.category ?? ""}` : `c${o.category}`);

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

/** Open or close the panel under the verdict (the Why? button). */
export function toggleWhy() {
  store.whyOpen = !store.whyOpen;
  renderCoach();
  if (store.whyOpen) handlers.explain();
}

/** The Why? disclosure of one option (view-advice.js puts it in the option's item). */
export function optionWhy(option) {
  const key = optionKey(option);
  const query = explainQuery();
  const open = query !== null && store.whyOptions.query === query && store.whyOptions.keys.has(key);
  const details = el(
    "details",
    { class: "option-why", "data-testid": "option-why", "data-key": key, open },
    el("summary", { text: t("why") }),
    el("div", { class: "why-body" }),
  );
  details.addEventListener("toggle", () => {
    const now = explainQuery();
    if (store.whyOptions.query !== now) store.whyOptions = { query: now, keys: new Set() };
    if (details.open) store.whyOptions.keys.add(key);
    else store.whyOptions.keys.delete(key);
    drawBody(details);
    if (details.open) handlers.explain();
  });
  return details;
}

/** Draw the Why? button, the panel and the bodies of the options' disclosures from the store. */
export function renderCoach() {
  const button = $("#why");
  const panel = $("#explanation");
  const query = explainQuery();
  button.disabled = query === null;
  button.hidden = practising(); // a practice game hides the advice, and so its explanation
  const open = store.whyOpen && query !== null;
  button.setAttribute("aria-expanded", String(open));
  panel.hidden = !open;
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
  box.removeAttribute("aria-busy");
  if (!shown || shown.loading) {
    box.setAttribute("aria-busy", "true");
    box.replaceChildren(el("p", { class: "why-loading", text: t("explainLoading") }));
    return;
  }
  if (shown.error) {
    const retry = el("button", { type: "button", class: "why-retry", text: t("retry") });
    retry.addEventListener("click", () => handlers.explain());
    box.replaceChildren(
      el("p", { class: "why-error", role: "alert", text: t("explainFailed", shown.error.message) }),
      retry,
    );
    return;
  }
  const { options, why, variant } = shown.result;
  const best = options[0];
  const { options: aimed, value } = aimedOptions(shown.result);
  const verdict = rankOptions(aimed, value)[0]?.option ?? best;
  if (key === null && optionKey(verdict) !== optionKey(best)) {
    // The verdict shows another option than the explanation's first (an exact tie, or a goal's
    // options ranked by their average): what it plays for, and no "why" naming another best.
    box.replaceChildren(aimsLine(verdict, variant));
    box.dataset.key = optionKey(verdict);
    return;
  }
  const option = key === null ? best : options.find((o) => optionKey(o) === key);
  if (!option) return box.replaceChildren();
  const against = optionKey(option) === optionKey(best) ? (options[1] ?? null) : option;
  box.replaceChildren(
    aimsLine(option, variant),
    against ? whyLine(best, against, against === option ? option.why : why) : el("p", { text: t("coachOnly") }),
  );
  box.dataset.key = optionKey(option);
}

/** "Plays for Four Dice 38 % (avg 21) · Treys 30 % (avg 10) · Yacht 7 % · Upper bonus 61 %": the
 * option's first three aims and the bonus chance. */
function aimsLine(option, variant) {
  const aims = option.aims.slice(0, 3).map((aim) => {
    const fixed = possible(variant, aim.category).filter((v) => v > 0).length === 1;
    const avg = fixed ? null : aim.mean_points.toFixed(0);
    return el("span", {
      class: "aim",
      "data-testid": "aim",
      "data-category": aim.category,
      "data-p": String(aim.p),
      "data-mean-points": String(aim.mean_points),
      text: t("aimWords", categoryName(aim.category), formatPercent(aim.p), avg),
    });
  });
  const bonus = el("span", {
    class: "aim",
    "data-testid": "bonus-chance",
    "data-p": String(option.bonus),
    text: t("bonusChance", formatPercent(option.bonus)),
  });
  const parts = [...aims, bonus].flatMap((part, i) => (i ? [" · ", part] : [part]));
  return el("p", { class: "aims" }, el("b", { text: `${t("playsFor")} ` }), ...parts);
}

/** "Keep 3 3 (not 3 3 5): Four Dice 38 % vs 29 %, bonus 61 % vs 57 %": why `best` beats `other`,
 * from coach.why's terms. */
function whyLine(best, other, terms) {
  const what = t("coachNot", optionWords(best), optionWords(other, true));
  const line = el("p", { class: "why", "data-testid": "why" });
  if (!terms.length) {
    line.textContent = t("coachSame", what);
    return line;
  }
  line.append(`${what}: `);
  terms.forEach((term, i) => {
    if (i) line.append(t("coachJoin"));
    line.append(
      el("span", {
        "data-testid": "why-term",
        "data-kind": term.kind,
        "data-category": term.category ?? null,
        "data-best": String(term.best),
        "data-other": String(term.other),
        text: termWords(term),
      }),
    );
  });
  return line;
}

/** One term: "Four Dice 38 % vs 29 %", "bonus 61 % vs 57 %", "Treys 10.1 pts vs 8.3 pts". */
function termWords(term) {
  if (term.kind === "bonus") return t("coachVs", t("coachBonus"), formatPercent(term.best), formatPercent(term.other));
  const name = categoryName(term.category);
  if (term.kind === "aim") return t("coachVs", name, formatPercent(term.best), formatPercent(term.other));
  return t("coachVs", name, t("coachPoints", term.best), t("coachPoints", term.other));
}

/** An option as a short phrase ("Keep 4 4", "Reroll all", "Score Choice now"); `short`: a keep
 * as its dice alone. */
function optionWords(option, short = false) {
  if (!option.keep) return t("coachScore", categoryName(option.category));
  if (option.keep.length === 5 && option.category !== undefined) return t("coachStop", categoryName(option.category));
  if (!option.keep.length) return t("coachReroll");
  const dice = option.keep.join(" ");
  return short ? dice : t("coachKeep", dice);
}
