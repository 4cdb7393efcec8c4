// The coach's lines, the same markup wherever an explanation is drawn (view-coach.js: under the
// verdict and in every option; view-coach-decision.js: a practice choice, a review decision), so
// one reader finds them all: what an option plays for (data-testid="aim": data-category, data-p,
// data-mean-points; the line: class "aims", data-play "average" or "goal"), the chance of the upper
// bonus (data-testid="bonus-chance": data-p) and why the best beats another (data-testid="why",
// its terms data-testid="why-term": data-kind, data-category, data-best, data-other).

import { el } from "./dom.js";
import { categoryName, possible } from "./rules.js";
import { t } from "./texts.js";
import { formatPercent } from "./texts-coach.js";

/** What identifies an option in an answer (as yacht.api's _option_key). */
export const optionKey = (o) => (o.keep ? `k${o.keep.join("")}:${o.category ?? ""}` : `c${o.category}`);

/** Fill `box` with the state of an explanation not there yet: busy (aria-busy) while `shown` is
 * missing or loading, or its error with Retry (`retry()`); true when it did. */
export function pending(box, shown, retry) {
  box.removeAttribute("aria-busy");
  if (!shown || shown.loading) {
    box.setAttribute("aria-busy", "true");
    box.replaceChildren(el("p", { class: "why-loading", text: t("explainLoading") }));
    return true;
  }
  if (!shown.error) return false;
  const button = el("button", { type: "button", class: "why-retry", text: t("retry") });
  button.addEventListener("click", retry);
  box.replaceChildren(
    el("p", { class: "why-error", role: "alert", text: t("explainFailed", shown.error.message) }),
    button,
  );
  return true;
}

/** "Plays for Four Dice 38 % (avg 21) · Treys 30 % (avg 10) · Yacht 7 % · Upper bonus 61 %": the
 * option's first three aims and, under the average's play, the bonus chance. `label`: the words in
 * bold before them; `goal`: the aims under the goal's play (option.goal_aims), with no bonus
 * chance (it is the average play's); `attrs`: more attributes of the line. */
export function aimsLine(option, variant, { label = t("playsFor"), goal = false, attrs = {} } = {}) {
  const aims = (goal ? option.goal_aims : option.aims).slice(0, 3).map((aim) =>
    el("span", {
      class: "aim",
      "data-testid": "aim",
      "data-category": aim.category,
      "data-p": String(aim.p),
      "data-mean-points": String(aim.mean_points),
      text: t("aimWords", categoryName(aim.category), formatPercent(aim.p), average(variant, aim)),
    }),
  );
  const bonus = goal
    ? []
    : [
        el("span", {
          class: "aim",
          "data-testid": "bonus-chance",
          "data-p": String(option.bonus),
          text: t("bonusChance", formatPercent(option.bonus)),
        }),
      ];
  const parts = [...aims, ...bonus].flatMap((part, i) => (i ? [" · ", part] : [part]));
  const play = goal ? "goal" : "average";
  return el("p", { class: "aims", "data-play": play, ...attrs }, el("b", { text: `${label} ` }), ...parts);
}

/** An aim's mean points in whole points, or null where they say nothing more than the chance: a
 * category with one score above 0 (the straights, Yacht) that is always scored at it when aimed. */
function average(variant, aim) {
  const scores = possible(variant, aim.category).filter((v) => v > 0);
  const always = scores.length === 1 && Math.abs(aim.mean_points - scores[0]) < 1e-9;
  return always ? null : aim.mean_points.toFixed(0);
}

/** "Keep 3 3 (not 3 3 5): Four Dice 38 % vs 29 %, bonus 61 % vs 57 %": why `best` beats `other`,
 * from coach.why's terms. */
export function whyLine(best, other, terms) {
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

/** An option as a short phrase ("Keep 4 4", "Reroll all", "Score Choice now", "Score Choice");
 * `short`: a keep as its dice alone. */
export function optionWords(option, short = false) {
  if (!option.keep) return t("coachScore", categoryName(option.category));
  if (option.keep.length === 5 && option.category !== undefined) return t("coachStop", categoryName(option.category));
  if (!option.keep.length) return t("coachReroll");
  const dice = option.keep.join(" ");
  return short ? dice : t("coachKeep", dice);
}
