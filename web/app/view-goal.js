// Playing to win: the goal card (best average, beat an opponent whose sheet is entered, or reach
// a score), and how a goal's answer is ranked and told. With o= the advisor's answer and every
// option carry "win" and "draw" (ranked by win + draw/2); with t=, "reach" (yacht.goal). The
// switch "Chance" / "Average" ranks the same options by that chance or by the expected score.
// The opponent's cells: data-testid="opponent-cell" with data-category (0–11), a <select> of the
// scores the category can take.

import { setGoal, setOpponent, setTarget } from "./actions.js";
import { $, el } from "./dom.js";
import { turnOrderCounts } from "./formats.js";
import { categoryName, possible, sheetTotals } from "./rules.js";
import { store } from "./store.js";
import { t } from "./texts.js";
import { formatChance } from "./texts-goal.js";

/** The opponent's cells and the controls (built once, when rules.json has loaded; main.js wires
 * the aim switch, which only redraws). */
export function buildGoal() {
  for (const radio of document.querySelectorAll("input[name=goal]")) {
    radio.addEventListener("change", () => setGoal(radio.value));
  }
  const grid = $("#opponent-grid");
  store.rules.categories.en.forEach((_, c) => {
    const select = el("select", { "data-testid": "opponent-cell", "data-category": c });
    select.addEventListener("change", () => setOpponent(c, select.value === "" ? null : Number(select.value)));
    grid.append(el("label", { class: "opponent-cell" }, el("span", { class: "name" }), select));
  });
  $("#target").addEventListener("change", (event) => {
    const text = event.target.value.trim();
    if (/^[0-9]{1,3}$/.test(text)) setTarget(Number(text));
    else event.target.value = String(store.state.target ?? "");
  });
}

export const goalKind = (state) => (state.opponent ? "opponent" : state.target !== null ? "target" : "none");

export function renderGoal() {
  const playing = store.game !== null;
  const s = store.state;
  const kind = goalKind(s);
  for (const radio of document.querySelectorAll("input[name=goal]")) {
    radio.checked = radio.value === kind;
    radio.disabled = playing;
  }
  const theirTurn = playing && store.view.phase === "opponent";
  let hint = kind === "none" ? t(playing ? "goalInGame" : "goalHint") : "";
  if (theirTurn) hint = t("opponentTurn");
  else if (playing && kind === "opponent") hint = t("opponentInGame");
  else if (playing && kind === "target") hint = t("targetInGame", s.target);
  $("#goal-hint").textContent = hint;
  $("#goal-hint").classList.toggle("prompt", theirTurn);
  $("#opponent-box").hidden = kind !== "opponent";
  $("#target-box").hidden = kind !== "target";
  $("#aim-box").hidden = kind === "none";
  for (const radio of document.querySelectorAll("input[name=aim]")) radio.checked = radio.value === store.aim;
  if (s.target !== null && document.activeElement !== $("#target")) $("#target").value = String(s.target);
  $("#target").disabled = playing;
  if (!s.opponent) return;
  for (const label of document.querySelectorAll(".opponent-cell")) {
    const select = label.querySelector("select");
    const c = Number(select.dataset.category);
    const name = categoryName(c);
    label.querySelector(".name").textContent = name;
    select.setAttribute("aria-label", t("opponentCell", name));
    const values = possible(s.variant, c);
    if (select.dataset.values !== `${s.variant}:${values.join()}`) {
      select.dataset.values = `${s.variant}:${values.join()}`;
      select.replaceChildren(
        el("option", { value: "", text: t("emptyCell") }),
        ...values.map((v) => el("option", { value: String(v), text: String(v) })),
      );
    }
    select.value = s.opponent[c] === null ? "" : String(s.opponent[c]);
    // Playing along their sheet follows the game: only their turn, in a free category, is entered.
    select.disabled = playing && (!theirTurn || s.opponent[c] !== null);
    label.classList.toggle("filled", s.opponent[c] !== null);
  }
  const totals = sheetTotals(s.opponent);
  const theirs = s.opponent.filter((v) => v !== null).length;
  const mine = s.sheet.filter((v) => v !== null).length;
  const [first, second] = turnOrderCounts(s.sheet);
  const fits = theirs === first || theirs === second;
  $("#opponent-sums").textContent = fits
    ? t("opponentSums", totals.total, totals.upper, totals.bonus > 0)
    : t("opponentTurns", theirs, mine, first, second);
  $("#opponent-sums").classList.toggle("warning", !fits);
}

/** The chance an option (or an answer) is ranked by with a goal: win + draw/2, or reach; null
 * without a goal. */
export function chanceOf(option) {
  if (option.win !== undefined) return option.win + option.draw / 2;
  return option.reach ?? null;
}

/** The options of an answer in the order the aim asks, and the value ranks tie on: with a goal
 * and the aim "win", the answer's order (by the chance); else by the expected score. */
export function aimedOptions(result) {
  const options = result.options ?? [];
  if (options.length && chanceOf(options[0]) !== null) {
    if (store.aim === "win") return { options, value: chanceOf };
    const byExpected = options.map((o, k) => ({ o, k })).sort((a, b) => b.o.expected - a.o.expected || a.k - b.k);
    return { options: byExpected.map(({ o }) => o), value: (o) => o.expected };
  }
  return { options, value: (o) => o.expected };
}

/** The chance of an option in words: "Chance of winning 62.7 % (a draw, 0.8 %, counts half)",
 * "Chance of reaching 200: 41.2 %"; "" without a goal. */
export function chanceText(option, target) {
  if (option.win !== undefined) {
    return t("winChance", formatChance(chanceOf(option)), option.draw >= 0.0005 ? formatChance(option.draw) : "");
  }
  if (option.reach !== undefined) return t("reachChance", target, formatChance(option.reach));
  return "";
}

/** The data-* attributes of an option's chances (data-win, data-draw, data-reach). */
export const chanceData = (option) => ({
  "data-win": option.win === undefined ? null : String(option.win),
  "data-draw": option.draw === undefined ? null : String(option.draw),
  "data-reach": option.reach === undefined ? null : String(option.reach),
});
