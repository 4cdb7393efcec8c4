// The review panel: the figures of the game so far, its chart, the costliest decisions and every
// decision; tapping one opens its position with its advice (Back returns).

import { MAX_ROLLS } from "../model/dice.js";
import { $, drawDie, el } from "./dom.js";
import { decisionCount, formatGame } from "../model/formats.js";
import { resultData, resultText } from "../model/result.js";
import { categoryName } from "../model/rules.js";
import { store } from "../state/store.js";
import { formatChance } from "../texts/texts-goal.js";
import { formatChanceLoss, formatExpected, formatGrade, formatLoss, formatSigned, t } from "../texts/texts.js";
import { reviewChart } from "./chart.js";
import { reviewWhy } from "./coach-decision.js";
import { pointsText } from "./verdict.js";

/** The query and language the review panel was drawn for (it is redrawn only when they change). */
let reviewDrawn = null;

let handlers = null;

/** The handlers the review calls (main.js): openDecision(decision). */
export function bindReview(given) {
  handlers = given;
}

/** An option of the review (chosen or best), as the advice list names it. */
export function describeOption(option, decision) {
  const name = option.category === undefined ? null : categoryName(option.category);
  const points = () => pointsText(option, decision.dice, store.reviewShown.result.variant);
  if (option.keep && option.category === undefined) {
    return option.keep.length ? t("keep", option.keep.join(" ")) : t("keepNone");
  }
  if (option.keep || decision.roll < MAX_ROLLS) return t("stop", name, points());
  return t("scoreAs", name, points());
}

export function renderReview() {
  const panel = $("#review");
  const available = store.game !== null && decisionCount(store.game) > 0;
  panel.hidden = !(store.reviewOpen && available);
  const button = $("#review-open");
  button.disabled = !available;
  button.classList.toggle("primary", store.stage?.phase === "over");
  button.setAttribute("aria-expanded", String(!panel.hidden));
  if (panel.hidden) {
    reviewDrawn = null;
    return;
  }

  const status = $("#review-status");
  const body = $("#review-body");
  const query = formatGame(store.game);
  const current = store.reviewShown?.query === query ? store.reviewShown : null;
  if (!current) {
    status.textContent = store.ready ? t("reviewLoading") : t("reviewWaiting");
    body.setAttribute("aria-busy", "true");
    if (!store.reviewShown) body.replaceChildren();
    reviewDrawn = null;
    return;
  }
  body.removeAttribute("aria-busy");
  const key = `${current.query}|${store.language}`;
  if (key === reviewDrawn) return;
  reviewDrawn = key;
  if (current.error) {
    status.textContent = t("internalError", current.error.message);
    body.replaceChildren();
    panel.removeAttribute("data-query");
    return;
  }
  status.textContent = "";
  const review = current.result;
  panel.dataset.query = review.query;
  body.replaceChildren(
    reviewFigures(review),
    lossCounts(review),
    ...practiceLink(),
    el("p", {
      class: "split",
      text: t(
        "luckSkill",
        t("pointsValue", formatSigned(review.luck)),
        t("pointsValue", formatSigned(-review.total_loss)),
      ),
    }),
    reviewChart(review),
    el("h3", { text: t("costliest") }),
    review.costliest.length
      ? el(
          "ol",
          { class: "decisions costliest" },
          ...review.costliest.map((i) => decisionItem(review.decisions[i], i, "costly", review)),
        )
      : el("p", { class: "hint", text: t("noLoss") }),
    ...aimsDiffer(review),
    el("h3", { text: t("everyDecision") }),
    el("ol", { class: "decisions" }, ...review.decisions.map((d, i) => decisionItem(d, i, "decision", review))),
  );
}

/** With an opponent or a score to reach: the decisions where playing for it and the best
 * average differ. */
function aimsDiffer(review) {
  if (!review.winning) return [];
  const differ = review.winning.aims_differ;
  const target = targetOf(review);
  return [
    el("h3", { text: target === null ? t("aimsDifferHeading") : t("aimsDifferHeadingReach", target) }),
    differ.length
      ? el(
          "ol",
          { class: "decisions" },
          ...differ.map((i) => decisionItem(review.decisions[i], i, "aims-differ", review)),
        )
      : el("p", { class: "hint", text: target === null ? t("aimsNeverDiffer") : t("aimsNeverDifferReach", target) }),
  ];
}

/** The review's score to reach (yacht.play.review.Chances.target), or null: with an opponent, or none. */
const targetOf = (review) => review.winning?.target ?? null;

/** "Chance of winning" or "Chance of reaching 200": what the review's chances are of. */
const chanceLabel = (review) => (targetOf(review) === null ? t("reviewChance") : t("reviewReach", targetOf(review)));

export function reviewFigures(review) {
  const figure = (label, value, attrs = {}) =>
    el(
      "div",
      attrs,
      el("dt", { text: label }),
      typeof value === "string" ? el("dd", { text: value }) : el("dd", {}, value),
    );
  const n = review.decisions.length;
  const measure = review.measure ?? "score";
  const goal = measure !== "score";
  const final = review.final ?? null; // None arrives as undefined
  return el(
    "dl",
    {
      class: "figures-list",
      "data-testid": "review-summary",
      "data-final": final,
      "data-total-loss": String(review.total_loss),
      "data-mean-loss": String(review.mean_loss),
      "data-luck": String(review.luck),
      "data-decisions": n,
      "data-measure": measure,
      "data-total-grade": String(review.total_grade),
      "data-mean-grade": String(review.mean_grade),
    },
    review.result
      ? figure(t("resultLabel"), resultText(review.result), { class: "final", ...resultData(review.result) })
      : final === null
        ? figure(t("inProgress"), formatExpected(review.last))
        : figure(t("finalScore"), String(final), { class: "final" }),
    // In the unit of the grades (yacht.play.review's total_grade, mean_grade): points, or with a
    // goal percentage points of its chance; the mean to two decimals, beside its yardstick.
    figure(t(goal ? "totalLossChance" : "totalLoss"), withUnit(measure, gradeNumber(measure, review.total_grade))),
    figure(t(goal ? "meanLossChance" : "meanLoss", n), withUnit(measure, formatLoss(review.mean_grade)), {
      class: "mean-loss",
    }),
    review.winning
      ? figure(
          chanceLabel(review),
          t("reviewChanceValue", formatChance(review.winning.start.chance), formatChance(review.winning.last.chance)),
          {
            class: "wide",
            "data-chance-start": review.winning.start.chance,
            "data-chance-last": review.winning.last.chance,
          },
        )
      : "",
  );
}

/** The decisions counted by loss (yacht.play.review.LOSS_BINS, as a proficiency test counts them):
 * data-testid="loss-counts", data-counts the review's JSON counts. */
function lossCounts(review) {
  const names = t("lossBins");
  const counts = Object.entries(review.counts);
  return el(
    "div",
    { class: "loss-counts" },
    el("h3", { text: t("lossCounts") }),
    el(
      "dl",
      { class: "figures-list", "data-testid": "loss-counts", "data-counts": JSON.stringify(review.counts) },
      ...counts.map(([bin, n], i) =>
        el("div", { "data-bin": bin }, el("dt", { text: names[i] }), el("dd", { text: String(n) })),
      ),
    ),
    el("p", {
      class: "hint",
      "data-testid": "loss-yardstick",
      text: `${gradedBy(review)} ${t("strongPlay", inUnit(review.measure, String(review.strong_play)))}`,
    }),
  );
}

/** A number in the unit of a measure (yacht.play.review.MEASURES): "0.2 pts", "0.2 pp" (en). */
const inUnit = (measure, text) => t(measure === "score" ? "lossPoints" : "lossChance", text);

/** A loss in its unit as nodes: the unit in a span of its own (class "unit", never broken: at
 * 320 px in Japanese "ポイント" moves to the next line whole, never "ポイン" / "ト"). */
const withUnit = (measure, number) => {
  const whole = inUnit(measure, number);
  const at = whole.indexOf(number);
  return el(
    "span",
    { class: "with-unit" },
    whole.slice(0, at + number.length),
    el("span", { class: "unit", text: whole.slice(at + number.length) }),
  );
};

/** A grade's number as formatGrade writes it (points to two decimals, pp to one). */
const gradeNumber = (measure, loss) => (measure === "score" ? formatLoss(loss) : formatChanceLoss(loss));

/** How the review grades: by expected score, or by the goal's chance in percentage points. */
function gradedBy(review) {
  if (review.measure === "win") return t("gradedByWin");
  if (review.measure === "reach") return t("gradedByReach", targetOf(review));
  return t("gradedByScore");
}

/** A practice game's link for a friend: the same seed and rules, from the empty sheet (the same
 * dice for the same choices). data-testid="practice-link". */
function practiceLink() {
  const game = store.game;
  if ((game.practice ?? null) === null) return [];
  const rival = game.opponent ? { sheet: game.opponent.sheet, turns: [] } : null;
  const query = formatGame({ ...game, turns: [], opponent: rival, keep: null });
  return [
    el(
      "p",
      { class: "practice-again" },
      el("a", { href: `${location.pathname}?${query}`, "data-testid": "practice-link", text: t("practiceAgain") }),
      " ",
      el("span", { class: "hint", text: t("practiceAgainHint") }),
    ),
  ];
}

/** One decision: where, the dice, what was chosen, its grade in the review's measure (what the
 * advice played for: yacht.play.review's "grade") and, when it was not the best, the best option
 * and its Why? under the card (views/coach-decision.js); with
 * a goal, the chance of the option chosen and, where it lost expected score, that loss too
 * (labelled); tap to open it. The item: data-testid = `testid` ("decision", "costly",
 * "aims-differ"), data-best, data-loss (the grade's loss: points, or percentage points of the
 * goal's chance), data-measure; its button: data-testid="review-decision", data-best, data-loss. */
export function decisionItem(decision, index, testid, review) {
  const grade = decision.grade;
  const lost = !grade.best;
  const w = decision.winning ?? null;
  const best = w && grade.measure !== "score" ? w.best : decision.best;
  const lines = [
    line("chosen", t("chose", describeOption(decision.chosen, decision))),
    lost ? line("best-option", t("bestWas", describeOption(best, decision))) : "",
    w ? line("chance-line", chanceLine(decision, review)) : "",
    w && decision.loss > 0
      ? line("other-measure", t("averageLoss", formatGrade({ measure: "score", loss: decision.loss })))
      : "",
    w && !lost && w.aims_differ
      ? line("other-measure", t("bestAverageWas", describeOption(decision.best, decision)))
      : "",
  ];
  const button = el(
    "button",
    // Named by what it shows (WCAG 2.5.3), with words for the drawn dice and the loss.
    {
      type: "button",
      class: "decision-button",
      "data-testid": "review-decision",
      "data-best": String(!lost),
      "data-loss": String(grade.loss),
    },
    el("span", { class: "where", text: t("where", decision.turn, decision.roll) }),
    el(
      "span",
      { class: "kept" },
      el("span", { class: "visually-hidden", text: t("decisionDice", decision.dice.join(" ")) }),
      ...decision.dice.map((face) => drawDie(face, "small")),
    ),
    el(
      "span",
      { class: lost ? "loss lost" : "loss" },
      el("span", { class: "visually-hidden", text: lost ? t("lossWord") : "" }),
      lost ? formatGrade(grade) : t("best"),
    ),
    ...lines,
    el("span", { class: "visually-hidden", text: t("openDecision") }),
  );
  button.addEventListener("click", () => handlers.openDecision(decision));
  return el(
    "li",
    {
      class: lost ? "decision lost" : "decision",
      "data-testid": testid,
      "data-index": index,
      "data-turn": decision.turn,
      "data-roll": decision.roll,
      "data-best": String(!lost),
      "data-loss": String(grade.loss),
      "data-measure": grade.measure,
      "data-score-loss": String(decision.loss),
      "data-query": decision.query,
      "data-chance": w ? String(w.chosen.chance) : null,
      "data-chance-best": w ? String(w.best.chance) : null,
      "data-aims-differ": w ? String(w.aims_differ) : null,
    },
    button,
    reviewWhy(decision, index, testid),
  );
}

/** A line of a decision's card, under its first row. */
const line = (cls, text) => el("span", { class: `line ${cls}`, text });

/** What a decision did to the goal's chance: "Chance of winning 30.6 % (best 47.4 %)", or "Chance
 * of reaching 200 …"; "(approximate)" where the chance is. */
function chanceLine(decision, review) {
  const w = decision.winning;
  const approximate = w.exact ? "" : ` (${t("approximate")})`;
  const best = w.loss > 1e-9 ? ` ${t("chanceBest", formatChance(w.best.chance))}` : "";
  return `${chanceLabel(review)} ${formatChance(w.chosen.chance)}${best}${approximate}`;
}

/** Round step for about `count` ticks over `span`: 1, 2 or 5 × 10^k. */
