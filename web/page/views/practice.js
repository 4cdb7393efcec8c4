// A practice game's turn (store.game.practice): the advice stays hidden. The verdict's room shows
// the grade of the last choice instead (or, with the grading at the end, that it was recorded),
// the dice are buttons that mark the dice to keep, and the verdict's button rolls, or opens the
// summary once the game is over. Scoring is the sheet's picker, as in any game.
//
// Test contracts: data-testid="practice-feedback" (data-state: "graded", "grading", "hidden",
// "error"; when graded data-count (decisions graded), data-turn, data-roll, data-loss,
// data-chosen-expected, data-best-expected and, with an opponent, data-chance-loss); the dice
// (data-testid="die") are toggle buttons with aria-pressed and data-held while a reroll is possible.
//
// The view renders from the store and calls the handlers it is given (bindPractice):
// practiceRolls(), openReview(), showSheet(); the dice call togglePracticeKeep(index) (views/input.js).

import { MAX_ROLLS, N_DICE } from "../model/dice.js";
import { $, drawDie, el } from "./dom.js";
import { decisionCount, formatGame } from "../model/formats.js";
import { categoryName, sheetTotals } from "../model/rules.js";
import { store } from "../state/store.js";
import { formatExpected, formatGrade, t } from "../texts/texts.js";
import { formatChance } from "../texts/texts-goal.js";
import { renderOver, resultBox } from "./verdict.js";

let handlers = null;

/** The handlers the practice's button calls (main.js): practiceRolls(), openReview(), showSheet()
 * (all five kept: the sheet's first free cell in view, focused, to score). */
export function bindPractice(given) {
  handlers = given;
}

/** The verdict area and its button in a practice game. */
export function renderPractice() {
  const v = store.stage;
  const list = $("#options");
  list.replaceChildren();
  list.removeAttribute("data-query");
  const summary = $("#summary");
  delete summary.dataset.expected;
  // Once over: the result, with the last choice's grade in one line under it.
  const feedback = v.phase === "over" ? resultBox(sheetTotals(v.sheet).total, feedbackBox(true)) : feedbackBox();
  $("#verdict-box").replaceChildren(...(feedback ? [feedback] : []));
  // Once over, the result says it.
  const status = v.phase === "over" ? "" : t("practiceStatus", v.turn, Math.max(v.roll, 1));
  summary.textContent = feedback || !instruction(v) ? status : t("practiceStatusSay", status, instruction(v));
  renderApply(v);
}

/** What to do now, in words (when the verdict's room has space for them). */
function instruction(v) {
  if (v.phase === "opponent") return t("practiceWaitOpponent");
  if (v.phase === "dice") return t("practiceRollFirst");
  if (v.phase === "choice" && v.roll < MAX_ROLLS && heldDice().length === N_DICE) return t("practiceAllHeld");
  if (v.phase === "choice") return v.roll < MAX_ROLLS ? t("practiceChoose") : t("practiceLast");
  return "";
}

/** The dice kept for the next roll, in the order shown. */
const heldDice = () => store.state.dice.filter((_, i) => store.practiceKeep[i] === true);

function renderApply(v) {
  const apply = $("#verdict-apply");
  apply.removeAttribute("aria-label");
  let action = null;
  if (v.phase === "over") {
    renderOver(apply);
    apply.textContent = t("practiceSummaryButton");
    apply.removeAttribute("aria-label");
    return;
  }
  const allHeld = v.phase === "choice" && heldDice().length === N_DICE;
  if (v.phase === "choice" && v.roll >= MAX_ROLLS) {
    apply.textContent = t("practiceScoreFirst");
  } else if (allHeld) {
    // All five kept before the last roll: the turn stops here; the sheet takes the score.
    apply.textContent = t("practiceStop");
    action = () => handlers.showSheet();
  } else {
    const held = v.phase === "choice" ? heldDice() : [];
    const text = held.length ? t("practiceRollSome", N_DICE - held.length) : t("practiceRoll");
    apply.textContent = text;
    if (held.length) apply.setAttribute("aria-label", t("practiceRollName", text, held.join(" ")));
    if (v.phase !== "opponent") action = () => handlers.practiceRolls();
  }
  apply.disabled = action === null;
  apply.onclick = action;
  if (store.focusVerdict && action) {
    apply.focus();
    handlers.verdictFocused();
  }
}

/** The grade of the last choice, or what stands in for it; null: nothing to say yet. `line`: in
 * one line (under the result, once the game is over). */
function feedbackBox(line = false) {
  const count = decisionCount(store.game);
  if (count === 0) return null;
  if (store.practiceFeedback === "end") {
    return el(
      "p",
      { class: "feedback-note", "data-testid": "practice-feedback", "data-state": "hidden" },
      t("feedbackHidden"),
    );
  }
  const grade = store.practiceGrade;
  const current = grade?.query === formatGame({ ...store.game, keep: null }) ? grade : null;
  if (!current) {
    return el(
      "p",
      { class: "feedback-note", "data-testid": "practice-feedback", "data-state": "grading" },
      t("feedbackGrading"),
    );
  }
  if (current.error) {
    const text = t("internalError", current.error.message);
    return el("p", { class: "feedback-note", "data-testid": "practice-feedback", "data-state": "error" }, text);
  }
  return gradeTable(current.result.decision, current.count, line);
}

/** The grade: the loss, then my choice and the best side by side (points now, expected final
 * score after it, and with an opponent the chance of winning). */
function gradeTable(d, count, line) {
  const w = d.winning ?? null;
  // Graded by what the advice plays for (the chance, with an opponent); the table below has the
  // other measure (the expected final score of both options).
  const lost = !d.grade.best;
  const headline = lost ? t("feedbackLoss", formatGrade(d.grade)) : t("feedbackBest");
  const best = w && d.grade.measure !== "score" ? w.best : d.best;
  const data = {
    "data-testid": "practice-feedback",
    "data-state": "graded",
    "data-count": count,
    "data-turn": d.turn,
    "data-roll": d.roll,
    "data-loss": String(d.loss),
    "data-best": String(!lost),
    "data-grade-loss": String(d.grade.loss),
    "data-chosen-expected": String(d.chosen.expected),
    "data-best-expected": String(d.best.expected),
    "data-chance-loss": w ? String(w.loss) : null,
  };
  if (line) return el("p", { class: "verdict-margin", ...data }, t("feedbackLast", headline));
  const row = (label, option, chance) =>
    el(
      "div",
      { class: "feedback-row" },
      el("span", { class: "feedback-what" }, t(label, optionWords(option))),
      el("span", { class: "feedback-num" }, option.category === undefined ? "—" : String(option.points)),
      el("span", { class: "feedback-num" }, formatExpected(option.expected)),
      w ? el("span", { class: "feedback-num" }, formatChance(chance)) : "",
    );
  const head = el(
    "div",
    { class: "feedback-row feedback-head" },
    el("span", { class: "feedback-what" }, t("feedbackHeading", d.turn, d.roll)),
    el("span", { class: "feedback-num" }, t("feedbackNow")),
    el("span", { class: "feedback-num" }, t("feedbackFinal")),
    w ? el("span", { class: "feedback-num" }, t("feedbackWin")) : "",
  );
  return el(
    "div",
    { class: lost ? "verdict feedback lost" : "verdict feedback", ...data },
    el("p", { class: "verdict-words" }, headline),
    el(
      "div",
      { class: w ? "feedback-grid with-win" : "feedback-grid" },
      head,
      row("feedbackYou", d.chosen, w?.chosen.chance),
      row("feedbackBestRow", best, w && best === w.best ? w.best.chance : w?.best_average.chance),
    ),
  );
}

/** An option in a few words: "Keep 4 4", "Reroll all dice", "Choice 21". */
function optionWords(option) {
  if (option.category !== undefined) return `${categoryName(option.category)} ${option.points}`;
  return option.keep.length ? t("keep", option.keep.join(" ")) : t("keepNone");
}

/** The dice of a practice turn: buttons that mark a die to keep while a reroll is possible
 * (`toggle(index)`), else pictures. */
export function practiceSlots(toggle) {
  const v = store.stage;
  const canHold = v.phase === "choice" && v.roll < MAX_ROLLS;
  return store.state.dice.map((face, i) => {
    if (!canHold) {
      const label = t("practiceDie", i + 1, face);
      return el(
        "span",
        { class: "slot", role: "img", "data-testid": "die", "aria-label": label },
        drawDie(face, "large"),
      );
    }
    const held = store.practiceKeep[i] === true;
    const button = el(
      "button",
      {
        type: "button",
        class: held ? "slot held" : "slot",
        "data-testid": "die",
        "data-held": held ? t("heldMark") : null,
        "aria-pressed": String(held),
        "aria-label": t("keepDie", i + 1, face),
      },
      drawDie(face, "large"),
    );
    button.addEventListener("click", () => toggle(i));
    return button;
  });
}
