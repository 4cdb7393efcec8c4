// The scoresheet: twelve cells (data-testid="cell", data-category 0–11) with the upper subtotal
// and the bonus progress. A category with at most six possible scores (Aces–Sixes, the
// straights, Yacht) shows them all on the sheet as chips: one tap writes the score (a tap on the
// pressed chip clears it). Every cell's name opens the picker, which offers only the scores the
// category can take under the rules, the current dice's points first; scoring from the sheet is
// the picker's own labelled button ("Score 24 in Sixes"), never a side effect of a tap. While
// playing along the sheet follows the game: the chips are disabled and the picker only scores.

import { applyOption, canScore, setSheet } from "./actions.js";
import { N_DICE } from "./dice.js";
import { $, el } from "./dom.js";
import { categoryName, pointsOf, possible, sheetTotals } from "./rules.js";
import { store } from "./store.js";
import { t } from "./texts.js";

/** Most scores a category may have for its chips to be on the sheet (one row of ≥ 44-px chips). */
const QUICK_MOST = 6;

const cellOf = (c) => $(`[data-testid=cell][data-category="${c}"]`);

/** The cells (built once, when rules.json has loaded); the sums go beside the last cell. */
export function buildSheet() {
  const groups = [$("#upper"), $("#lower")];
  store.rules.categories.en.forEach((_, c) => {
    const open = el(
      "button",
      { type: "button", class: "open", "aria-controls": "picker" },
      el("span", { class: "name" }),
      el("span", { class: "value" }),
    );
    open.addEventListener("click", () => (store.picker === c ? closePicker() : openPicker(c)));
    const quick = Object.values(store.rules.variants).every((v) => v.possible[c].length <= QUICK_MOST);
    const cell = el("div", { class: quick ? "cell quick" : "cell", "data-testid": "cell", "data-category": c }, open);
    if (quick) cell.append(el("div", { class: "quick-values", role: "group" }));
    groups[c < store.rules.upper ? 0 : 1].append(cell);
  });
  $("#lower").append($("#sums"));
  $("#picker-close").addEventListener("click", () => closePicker(true));
}
export function openPicker(c) {
  store.picker = c;
  renderSheet();
}

/** Close the picker; `focus`: give the focus back to its cell. */
export function closePicker(focus = false) {
  const c = store.picker;
  store.picker = null;
  renderSheet();
  if (focus && c !== null) cellOf(c)?.querySelector(".open").focus();
}

/** The points the dice shown score in category c, or null when there are not five dice. */
function dicePoints(c) {
  return store.state.dice.length === N_DICE ? pointsOf(store.state.dice, c, store.state.variant) : null;
}

export function renderSheet() {
  const best = store.shown?.result && !store.shown.error ? bestCategory() : undefined;
  for (const cell of document.querySelectorAll("[data-testid=cell]")) {
    const c = Number(cell.dataset.category);
    const value = store.state.sheet[c];
    const points = value === null ? dicePoints(c) : null;
    const name = categoryName(c);
    cell.querySelector(".name").textContent = name;
    const shown = cell.querySelector(".value");
    shown.textContent = value !== null ? String(value) : points !== null ? t("preview", points) : t("emptyCell");
    shown.classList.toggle("preview", value === null && points !== null);
    cell.dataset.value = value === null ? "" : String(value);
    cell.classList.toggle("filled", value !== null);
    cell.classList.toggle("best", best === c);
    const open = cell.querySelector(".open");
    open.setAttribute("aria-expanded", String(store.picker === c));
    const state = value !== null ? String(value) : t("emptyName");
    open.setAttribute("aria-label", `${name}: ${state}${points !== null ? `, ${t("previewName", points)}` : ""}`);
    const quick = cell.querySelector(".quick-values");
    if (quick) renderChips(quick, c, value, points);
  }
  const totals = sheetTotals(store.state.sheet);
  $("#subtotal").textContent = `${totals.upper} / ${store.rules.bonus.threshold}`;
  const need = store.rules.bonus.threshold - totals.upper;
  $("#bonus").textContent = totals.bonus > 0 ? `+${totals.bonus}` : totals.upperFull ? "0" : t("bonusNeed", need);
  $("#total").textContent = String(totals.total);
  $("#sheet-locked").hidden = store.game === null;
  renderPicker();
}

/** The chips of a category shown on the sheet: its scores, the pressed one written, the dice's
 * points marked; disabled while playing along. Rebuilt only when the rules' scores change. */
function renderChips(box, c, value, points) {
  const name = categoryName(c);
  const values = possible(store.state.variant, c);
  if (box.dataset.values !== values.join()) {
    box.dataset.values = values.join();
    box.replaceChildren(
      ...values.map((v) => {
        const chip = el("button", { type: "button", class: "chip", "data-value": v, text: String(v) });
        chip.addEventListener("click", () => setSheet(c, store.state.sheet[c] === v ? null : v));
        return chip;
      }),
    );
  }
  box.setAttribute("aria-label", t("pickerValues", name));
  const locked = store.game !== null;
  for (const chip of box.children) {
    const v = Number(chip.dataset.value);
    chip.disabled = locked;
    chip.classList.toggle("dice-points", v === points);
    chip.setAttribute("aria-pressed", String(v === value));
    chip.setAttribute("aria-label", t("setCell", name, v));
  }
}

/** The category the best option scores (at roll 3, or stopping early), if any. */
function bestCategory() {
  const result = store.shown.action === "game" ? store.shown.result.advice : store.shown.result;
  return result?.options?.[0]?.category;
}

function renderPicker() {
  const picker = $("#picker");
  const c = store.picker;
  picker.hidden = c === null;
  if (c === null) return;
  const name = categoryName(c);
  const value = store.state.sheet[c];
  const points = value === null ? dicePoints(c) : null;
  $("#picker-title").textContent = name;

  const score = $("#picker-score");
  const scorable = value === null && points !== null && canScore();
  score.hidden = !scorable;
  const hints = [];
  if (scorable) {
    score.textContent = t("scoreHere", points, name);
    score.onclick = () => {
      store.picker = null;
      applyOption({ category: c });
    };
    if (store.state.roll < 3) hints.push(t("scoreEndsTurn"));
    if (!store.game) hints.push(t("scoreStartsGame"));
  }
  const locked = store.game !== null;
  if (locked) hints.push(t("sheetLocked"));
  else if (points !== null) hints.push(t("pickerDice", points));
  $("#picker-hint").textContent = hints.join(" ");

  const values = $("#picker-values");
  values.hidden = locked;
  values.setAttribute("aria-label", t("pickerValues", name));
  if (locked) {
    values.replaceChildren();
    return;
  }
  const allowed = possible(store.state.variant, c);
  const ordered =
    points !== null && allowed.includes(points) ? [points, ...allowed.filter((v) => v !== points)] : allowed;
  const chip = (v) => {
    const text = v === null ? t("emptyCell") : String(v);
    const button = el("button", {
      type: "button",
      class: v === points && v !== null ? "chip dice-points" : "chip",
      "data-value": v === null ? "" : v,
      "aria-pressed": String(v === value),
      "aria-label": v === null ? t("clearCell", name) : t("setCell", name, v),
      text,
    });
    button.addEventListener("click", () => {
      store.picker = null;
      setSheet(c, v);
      cellOf(c)?.querySelector(".open").focus();
    });
    return button;
  };
  values.replaceChildren(...ordered.map(chip), chip(null));
}
