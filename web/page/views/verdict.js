// The verdict: the best option in words under the dice ("Keep 4 4 6 6 — reroll the 1", "Score
// Choice: 21", "Stop and score Full House: 25"), its margin over the next best option (or the
// options it ties with), the dice to reroll marked on the dice themselves, and one button that
// plays it. One element data-testid="verdict" with data-expected and data-keep or data-category.

import { keptMask } from "../model/dice.js";
import { $, el } from "./dom.js";
import { gameResult, resultData, resultText } from "../model/result.js";
import { categoryName, pointsOf } from "../model/rules.js";
import { store } from "../state/store.js";
import { formatChanceLoss, formatLoss, t } from "../texts/texts.js";
import { aimedOptions, chanceData, chanceText, estimateWord, rivalLeftOut } from "./goal.js";

let handlers = null;

/** The handlers the verdict's buttons call (main.js): applyOption(option), openReview(), newGame(). */
export function bindVerdict(given) {
  handlers = given;
}

/** "23", or "9 + 35 bonus" when scoring lifts the upper total to the bonus. */
export function pointsText(option, dice, variant) {
  const raw = pointsOf(dice, option.category, variant);
  return option.points > raw ? t("bonusPoints", raw) : String(option.points);
}

/** The dice `keep` leaves to reroll, in the order shown. */
function rerolled(dice, keep) {
  const mask = keptMask(dice, keep);
  return dice.filter((_, i) => !mask[i]);
}

/** An option in words, as the verdict says it. */
export function verdictWords(option, dice, variant, roll) {
  if (option.category !== undefined) {
    const name = categoryName(option.category);
    const points = pointsText(option, dice, variant);
    return option.keep || roll < 3 ? t("verdictStop", name, points) : t("verdictScore", name, points);
  }
  if (option.keep.length === 0) return t("keepNone");
  // the dice kept and rerolled never break apart (no-break spaces): "Keep 4 4 — reroll 1 6 6"
  return t("verdictKeep", option.keep.join("\u00a0"), rerolled(dice, option.keep));
}

/** Clear the verdict (no advice to show, or an error in its place). */
export function clearVerdict() {
  $("#verdict-box").replaceChildren();
  idleApply();
  markDice(null);
}

/** Show the verdict of `result` (yacht.api's advice) for the position's `dice`; `target`: the
 * score to reach (t=), for the words of its chance. */
export function renderVerdict(result, dice, variant, target = null) {
  const apply = $("#verdict-apply");
  if (result.over) {
    $("#verdict-box").replaceChildren(resultBox(result.score));
    markDice(null);
    const reviewable = store.game !== null;
    if (!reviewable) return idleApply();
    return renderOver(apply);
  }
  // The core's order and ranks (yacht.core.ranking), never ranked again here.
  const { ranked, byChance } = aimedOptions(result);
  if (ranked.length === 0) return clearVerdict();
  const best = ranked[0].option;
  const tied = ranked.filter((r) => r.rank === 1).length - 1;
  const next = ranked.find((r) => r.rank > 1)?.option;
  let margin = "";
  if (tied > 0) margin = t("verdictTied", tied);
  else if (next && byChance) {
    const diff = formatChanceLoss(100 * (next.chance_loss - best.chance_loss));
    margin = t("verdictMarginChance", diff, verdictWords(next, dice, variant, result.roll));
  } else if (next) {
    const diff = formatLoss(next.loss - best.loss);
    margin = t("verdictMargin", diff, verdictWords(next, dice, variant, result.roll));
  }
  const chance = result.decided ? t("gameDecided") : chanceText(best, target, !result.exact);
  const verdict = el(
    "div",
    {
      class: "verdict",
      "data-testid": "verdict",
      "data-expected": String(best.expected),
      "data-keep": best.keep ? best.keep.join("") : null,
      "data-category": best.category ?? null,
      "data-exact": result.exact === undefined ? null : String(result.exact),
      "data-estimate": result.estimate ? result.estimate.lacking.join(" ") : null,
      ...chanceData(best),
    },
    el("p", { class: "verdict-words", text: verdictWords(best, dice, variant, result.roll) }),
    chanceLine(chance, estimateWord(result), result.exact),
    margin ? el("p", { class: "verdict-margin", text: margin }) : "",
  );
  $("#verdict-box").replaceChildren(verdict);
  markDice(best.keep && best.category === undefined ? best.keep : null);

  const playable = store.game === null || store.stage?.phase === "choice";
  if (!playable) return idleApply();
  apply.disabled = false;
  const text = best.category !== undefined ? t("applyScore") : best.keep.length ? t("applyKeep") : t("applyReroll");
  apply.textContent = text;
  apply.setAttribute("aria-label", t("bestAction", text));
  apply.onclick = () => handlers.applyOption(best);
  if (store.focusVerdict) {
    apply.focus();
    handlers.verdictFocused();
  }
}

/** The verdict's line under its words: the chance (≈ where approximate), with "estimate, no
 * network" beside it (data-testid="verdict-estimate") where the answer went without files; or
 * that a rival's sheet being entered is left out, and why (data-testid="rival-left-out", with
 * data-theirs and data-fit: their count, and the counts that fit my turn). A line that carries
 * such words ("noted") may take two lines, the summary's line under the verdict then its room. */
function chanceLine(chance, word, exact) {
  const out = rivalLeftOut();
  if (out) {
    return el("p", {
      class: "verdict-chance noted",
      "data-testid": "rival-left-out",
      "data-theirs": out.theirs,
      "data-fit": `${out.first} ${out.second}`,
      text: t("rivalLeftOut", out.theirs, out.first, out.second),
    });
  }
  if (!chance && !word) return "";
  const title = chance && !exact ? t("approximate") : null;
  const line = el("p", { class: word ? "verdict-chance noted" : "verdict-chance", title });
  line.append(chance);
  if (word) {
    if (chance) line.append(" "); // where the line may break: the words beside it stay whole
    const text = chance ? t("estimateTag", word) : word;
    const kind = chance ? "estimate-word beside" : "estimate-word"; // beside a chance: never broken
    line.append(el("span", { class: kind, "data-testid": "verdict-estimate", text }));
  }
  return line;
}

/** The verdict's room when a game is over: the result in words ("You won 184–148"), or the final
 * score alone without an opponent; `under`: an element under it (a practice's last grade).
 * data-testid="result" with data-final and, against an opponent, data-outcome, data-mine and
 * data-theirs. */
export function resultBox(score, under = null) {
  const result = store.stage ? gameResult(store.stage.sheet, store.stage.opponent) : null;
  return el(
    "div",
    {
      class: "verdict result",
      "data-testid": "result",
      "data-final": String(score),
      ...(result ? resultData(result) : {}),
    },
    el("p", { class: "verdict-words", text: result ? resultText(result) : t("gameFinal", score) }),
    store.game ? playAgain() : "",
    under ?? "",
  );
}

/** "Play again": a new game of the same kind (alone, against a rival, a practice). */
function playAgain() {
  const button = el("button", { type: "button", id: "verdict-new", text: t("playAgain") });
  button.addEventListener("click", () => handlers.newGame());
  return button;
}

/** The verdict's button once a game is over: Review this game ("Play again" is in the result). */
export function renderOver(apply) {
  apply.disabled = false;
  apply.textContent = t("reviewGame");
  apply.setAttribute("aria-label", t("reviewGameName"));
  apply.onclick = () => handlers.openReview();
}

/** The verdict's button with nothing to do: it keeps its place (the page never moves), disabled. */
function idleApply() {
  const apply = $("#verdict-apply");
  apply.disabled = true;
  apply.textContent = t("applyKeep");
  apply.removeAttribute("aria-label");
  apply.onclick = null;
}

/** Mark the dice a keep rerolls (data-reroll, its word drawn by CSS from the attribute: the
 * verdict's words say it to a screen reader) and those it keeps; null: no marks. */
function markDice(keep) {
  const slots = [...document.querySelectorAll("#slots [data-testid=die]")];
  const mask = keep ? keptMask(store.state.dice, keep) : [];
  slots.forEach((slot, i) => {
    const reroll = keep !== null && !mask[i];
    if (reroll) slot.setAttribute("data-reroll", t("rerollMark"));
    else slot.removeAttribute("data-reroll");
  });
}
