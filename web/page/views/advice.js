import { N_DICE, sortedKey } from "../model/dice.js";
import { $, drawDie, el } from "./dom.js";
import { readQuery } from "../model/formats.js";
import { categoryName } from "../model/rules.js";
import { currentQuery, practising, store } from "../state/store.js";
import { formatChanceLoss, formatExpected, formatLoss, t } from "../texts/texts.js";
import { formatChance } from "../texts/texts-goal.js";
import { renderError } from "./error.js";
import {
  aimedOptions,
  chanceData,
  chanceOf,
  chanceText,
  estimateWord,
  renderEstimate,
  rivalLeftOut,
  withEstimate,
} from "./goal.js";
import { renderHistogram } from "./histogram.js";
import { renderCard } from "./card.js";
import { optionWhy, renderCoach } from "./coach.js";
import { renderPractice } from "./practice.js";
import { clearVerdict, pointsText, renderVerdict } from "./verdict.js";

let handlers = null;

/** The handlers the options' buttons call (main.js): applyOption(option). */
export function bindAdvice(given) {
  handlers = given;
}

export function markStale() {
  $("#options").setAttribute("aria-busy", "true");
  for (const button of document.querySelectorAll("#options button")) button.disabled = true;
  renderPrompt();
}

/** The prompt under the dice as the entry stands, drawn at once when the entry changes (before the
 * answer): the dice still to enter, the rival's first score to enter; a prompt the entry has made
 * untrue is taken away (the answer's summary follows). Only when no answer of this entry is shown. */
function renderPrompt() {
  const summary = $("#summary");
  if (practising() || (store.game && store.stage.phase !== "choice")) return;
  const count = store.state.dice.length;
  const expected = summary.dataset.expected;
  if (theyStartNow()) summary.textContent = t("theyStart");
  else if (!store.game && count > 0 && count < N_DICE) {
    const text = t("needDice", N_DICE - count, expected ? formatExpected(Number(expected)) : "…");
    summary.textContent = text;
  } else if (promptShown(summary.textContent)) summary.textContent = "";
}

/** Whether `text` is a prompt of the entry (renderPrompt's), in the language shown. */
function promptShown(text) {
  if (text === t("theyStart")) return true;
  return [1, 2, 3, 4].some((n) => text.startsWith(t("needDice", n, "").split("(")[0]));
}

/** Draw the advice (the verdict, every option) and the coach's controls from the store. */
export function renderAdvice() {
  drawAdvice();
  renderCoach();
}

function drawAdvice() {
  const summary = $("#summary");
  const list = $("#options");
  list.removeAttribute("aria-busy");
  renderEstimate(shownAdvice());
  if (renderError()) {
    clearVerdict();
    summary.textContent = "";
    list.replaceChildren();
    if (store.shown?.error && !store.loadError) list.setAttribute("data-query", store.shown.query);
    else list.removeAttribute("data-query");
    return;
  }
  if (practising()) return renderPractice(); // the advice stays hidden
  delete summary.dataset.expected;
  const current = store.shown?.query === currentQuery() || store.shown?.query === store.link ? store.shown : null;
  renderHistogram(); // in a game: the chart of my turn's start (views/histogram.js: chartedQuery)
  if (store.game && store.stage.phase === "dice") {
    clearVerdict();
    return renderEntryPrompt(current?.action === "game" ? current.result : null);
  }
  if (store.game && store.stage.phase === "opponent") {
    clearVerdict();
    // Their last turn to come with my sheet full: the chance of winning as it goes.
    const last = current?.action === "game" ? (current.result.chance ?? null) : null;
    summary.textContent = last ? `${t("opponentTurn")} · ${chanceText(last, null)}` : t("opponentTurn");
    list.replaceChildren();
    if (current) list.setAttribute("data-query", current.query);
    else list.removeAttribute("data-query");
    return;
  }
  if (!store.shown) {
    clearVerdict();
    summary.textContent = store.ready ? "" : t("waiting");
    list.replaceChildren();
    return;
  }

  const result = store.shown.action === "game" ? store.shown.result.advice : store.shown.result;
  const position = store.shown.action === "game" ? store.shown.result.position : store.shown.result.query;
  const { dice, target } = readQuery(position);
  const expected = formatExpected(result.expected);
  summary.dataset.expected = String(result.expected);
  if (result.over)
    summary.textContent = store.game ? "" : t("over"); // the result says it
  else if (result.roll === 0 && store.state.dice.length > 0 && store.state.dice.length < N_DICE) {
    summary.textContent = t("needDice", N_DICE - store.state.dice.length, expected);
  } else if (result.roll === 0 && theyStartNow()) summary.textContent = t("theyStart");
  else if (result.roll === 0) summary.textContent = withChance(result, t("beforeRoll", expected, result.score));
  else summary.textContent = t("bestPlay", expected, result.score);
  const variant = store.shown.action === "game" ? store.shown.result.variant : result.variant;
  // The core's order and ranks (yacht.core.ranking), never ranked again here.
  const { ranked, byChance } = aimedOptions(result);
  list.style.minHeight = "";
  list.replaceChildren(...ranked.map(({ option, rank }) => renderOption(option, rank, dice, variant, byChance)));
  list.setAttribute("data-query", store.shown.query);
  list.setAttribute("data-position", position);
  renderVerdict(result, dice, variant, target);
  // A rival's sheet left out of the advice: the verdict says so, else the line under it.
  const out = rivalLeftOut();
  if (out && !$("#verdict-box").childElementCount) {
    summary.textContent = `${t("rivalLeftOut", out.theirs, out.first, out.second)} · ${summary.textContent}`;
  }
  renderCard(); // the best category, and the previews of these dice
}

/** The advice answer shown (a game's: its "advice"), or null. */
function shownAdvice() {
  const result = store.shown?.result;
  if (!result || practising()) return null;
  return store.shown.action === "game" ? result.advice : result;
}

/** A game waits for dice: what to enter, and the expected final score (once known). */
export function renderEntryPrompt(result) {
  const summary = $("#summary");
  const list = $("#options");
  const missing = N_DICE - store.stage.locked.filter(Boolean).length;
  let text;
  let expected = null;
  if (store.game.keep) {
    text = store.game.keep.length ? t("enterKept", store.game.keep.join(" "), missing) : t("enterRerollAll");
    const option = result?.advice.options.find(
      (o) => o.keep && !o.category && sortedKey(o.keep) === sortedKey(store.game.keep),
    );
    expected = option?.expected ?? null;
  } else {
    text = t("enterTurn", store.stage.turn);
    expected = result && result.advice.roll === 0 ? result.advice.expected : null;
  }
  if (expected !== null) {
    text = `${text} ${t("expectedNow", formatExpected(expected))}`;
    summary.dataset.expected = String(expected);
  }
  // Between two turns against a rival: the chance of winning stays in view.
  if (result && !store.game.keep && result.advice.roll === 0) text = withChance(result.advice, text);
  summary.textContent = text;
  // The list keeps its height while the dice are entered: the page does not shrink under the
  // finger that acted on an option far down it (the next answer draws the list again).
  if (list.childElementCount) list.style.minHeight = `${list.offsetHeight}px`;
  list.replaceChildren();
  if (result) list.setAttribute("data-query", result.query);
  else list.removeAttribute("data-query");
  renderCard();
}

/** One option: what to do, its expected final score and loss, a button that does it and its Why?
 * (views/coach.js). `byChance`: the list is ranked by the goal's chance: the loss is the chance's
 * (percentage points, data-chance-loss), the loss of expected score beside it, labelled. */
export function renderOption(option, rank, dice, variant, byChance = false) {
  const item = el("li", {
    class: rank === 1 ? "option best" : "option",
    "data-testid": "option",
    "data-rank": rank,
    "data-expected": String(option.expected),
    "data-keep": option.keep ? option.keep.join("") : null,
    "data-category": option.keep ? null : option.category,
    "data-loss": String(option.loss),
    "data-chance-loss": option.chance_loss === undefined ? null : String(option.chance_loss),
    ...chanceData(option),
  });
  const what = el("span", { class: "what" });
  let label;
  let applyText;
  let applyName;
  if (option.keep) {
    const keepText = option.keep.join(" ");
    const kept = el("span", { class: "kept" }, ...option.keep.map((face) => drawDie(face, "small")));
    if (option.category !== undefined) {
      label = t("stop", categoryName(option.category), pointsText(option, dice, variant));
      applyText = t("applyScore");
      applyName = t("applyScoreName", categoryName(option.category));
    } else if (option.keep.length === 0) {
      label = t("keepNone");
      applyText = t("applyReroll");
      applyName = t("applyRerollName");
    } else {
      label = t("keep", keepText);
      applyText = t("applyKeep");
      applyName = t("applyKeepName", keepText);
    }
    if (option.keep.length) what.append(kept);
    // The dice are drawn; spell them out for screen readers, and name the category when stopping.
    const text = el("span", {
      class: option.category !== undefined || !option.keep.length ? "text" : "text visually-hidden",
    });
    text.textContent = label;
    what.append(text);
  } else {
    label = t("scoreAs", categoryName(option.category), pointsText(option, dice, variant));
    applyText = t("applyScore");
    applyName = t("applyScoreName", categoryName(option.category));
    what.append(el("span", { class: "text", text: label }));
  }
  const figures = el(
    "span",
    { class: "figures" },
    el("span", { class: "visually-hidden", text: `${t("expectedLabel")} ` }),
    el("span", { class: "expected", text: formatExpected(option.expected) }),
    el("span", { class: "visually-hidden", text: ` ${t("lossLabel")} ` }),
    el("span", { class: "loss", text: rank === 1 ? t("best") : lossText(option, byChance) }),
  );
  if (byChance && rank !== 1) {
    figures.append(
      el("span", { class: "other-loss", text: `${t("averageLossLabel")}\u00a0${formatLoss(option.loss)}` }),
    );
  }
  const chance = chanceOf(option);
  if (chance !== null) {
    figures.prepend(
      el("span", { class: "visually-hidden", text: `${t("chanceLabel")} ` }),
      el("span", { class: "chance", text: formatChance(chance) }),
    );
  }
  const apply = el("button", { type: "button", class: "apply", "aria-label": applyName, text: applyText });
  apply.addEventListener("click", () => handlers.applyOption(option));
  item.append(el("span", { class: "rank", text: String(rank) }), what, figures, apply, optionWhy(option));
  return item;
}

/** An option's loss in the measure the list is ranked by: "−4.3 pp" by the chance, "−0.84" by
 * the expected score. */
function lossText(option, byChance) {
  return byChance ? t("chanceLossUnit", formatChanceLoss(100 * option.chance_loss)) : formatLoss(option.loss);
}

/** A new game whose rival starts, before anything is entered: their first score comes first. */
const theyStartNow = () => store.theyStart;

/** `text` after the chance of a position with a goal (its answer's: before the roll), if any. */
function withChance(result, text) {
  const target = store.state.target ?? null;
  const chance = withEstimate(chanceText(result, target, !result.exact), estimateWord(result));
  return chance ? `${chance} · ${text}` : text;
}
