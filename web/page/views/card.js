// The score card of a two-player game, as on the console: a row per category (0–11, with the
// upper subtotal and bonus progress after Sixes), my column and, whenever the game has an
// opponent, theirs beside it; each column's total in its heading.
//
// My column: data-testid="cell" with data-category (0–11) and data-value (the score written, ""
// when empty). A category with at most six possible scores (Aces–Sixes, the straights, Yacht)
// has them as chips in the row: a tap writes the score, and a tap on the pressed chip leaves it
// (the second tap of a double tap is no undo). The name opens the picker, which offers only the
// scores the category can take, the current dice's points first, and Clear when the cell has a
// score (clearing is its own control); scoring from the sheet is the picker's own labelled
// button ("Score 24 in Sixes"), never a side effect of a tap. While playing along my column
// follows the game: the chips are disabled and the picker only scores.
//
// Their column: data-testid="opponent-cell" with data-category (0–11) and data-value: a tap opens
// the picker of their scores (one tap writes it at once when only one score is possible). While
// playing along only their turn, in a free category, is entered.
//
// The picker is a sheet over the screen (role="dialog"): it takes the focus when it opens and
// gives it back to the cell when it closes. The card's height is set by its rows alone, so the
// page never moves while it is built or filled.
//
// The view renders from the store and calls the handlers it is given (buildCard): setSheet(c,
// value), setOpponent(c, value), setGoal(kind), applyOption(option), canScore().

import { N_DICE } from "../model/dice.js";
import { $, el } from "./dom.js";
import { categoryName, pointsOf, possible, sheetTotals } from "../model/rules.js";
import { correctableTheirTurn, practising, store } from "../state/store.js";
import { t } from "../texts/texts.js";
import { aimedOptions } from "./goal.js";

/** Most scores a category may have for its chips to be in the row. */
const QUICK_MOST = 6;

let handlers = null;

const cellOf = (c) => $(`[data-testid=cell][data-category="${c}"]`);
const theirCellOf = (c) => $(`[data-testid=opponent-cell][data-category="${c}"]`);

/** The rows (built once, when rules.json has loaded). */
export function buildCard(given) {
  handlers = given;
  const rows = $("#card-rows");
  const upper = store.rules.upper;
  store.rules.categories.en.forEach((_, c) => {
    const open = el(
      "button",
      { type: "button", class: "open", "aria-haspopup": "dialog" },
      el("span", { class: "name" }),
      " ",
      el("span", { class: "value" }),
      el("span", { class: "visually-hidden more" }),
    );
    open.addEventListener("click", () => togglePicker("me", c));
    const quick = Object.values(store.rules.variants).every((v) => v.possible[c].length <= QUICK_MOST);
    const cell = el("div", { class: quick ? "cell quick" : "cell", "data-testid": "cell", "data-category": c }, open);
    if (quick) cell.append(el("div", { class: "quick-values", role: "group" }));
    const theirs = el(
      "button",
      {
        type: "button",
        class: "theirs",
        "data-testid": "opponent-cell",
        "data-category": c,
        "aria-haspopup": "dialog",
      },
      el("span", { class: "visually-hidden name" }),
      " ",
      el("span", { class: "value" }),
      el("span", { class: "visually-hidden more" }),
    );
    theirs.addEventListener("click", () => tapTheirCell(c));
    rows.append(el("div", { class: "card-row", "data-row": c }, cell, theirs));
    if (c === upper - 1) rows.append(subtotalRow());
  });
  $("#opponent-toggle").addEventListener("click", () => handlers.setGoal(store.state.opponent ? "none" : "opponent"));
  $("#picker-close").addEventListener("click", () => handlers.closePicker(true));
}

/** The row after Sixes: each column's upper subtotal and what the bonus still needs. */
function subtotalRow() {
  return el(
    "div",
    { class: "card-row subtotal-row" },
    el(
      "p",
      { class: "sums" },
      el("span", { class: "sums-name", "data-i18n": "subtotal" }),
      " ",
      el("b", { id: "subtotal" }),
      " ",
      el("span", { id: "bonus" }),
    ),
    el("p", { class: "sums theirs-sums" }, el("b", { id: "opponent-subtotal" }), el("span", { id: "opponent-bonus" })),
  );
}

function togglePicker(who, c) {
  const same = store.picker?.who === who && store.picker.category === c;
  if (same) handlers.closePicker(true);
  else openPicker(who, c);
}

/** Their cell: while playing along, only in their turn and a free category; a category with one
 * possible score is written at once. */
function tapTheirCell(c) {
  if (!store.state.opponent) return;
  const values = possible(store.state.variant, c);
  if (store.game && values.length === 1) return handlers.setOpponent(c, values[0]);
  togglePicker("opponent", c);
}

function openPicker(who, c) {
  const opener = document.activeElement;
  handlers.openPicker(who, c, opener instanceof HTMLElement ? opener : null);
}

/** The focus into the open picker: its Score button, else its first value, else Close. */
export function focusPicker() {
  const first = $("#picker-score:not([hidden])") ?? $("#picker-values button") ?? $("#picker-close");
  first?.focus();
}

/** The focus back to the cell that opened `picker` (else what had the focus then). */
export function focusPickerOpener(picker) {
  const back = picker.who === "me" ? cellOf(picker.category)?.querySelector(".open") : theirCellOf(picker.category);
  (back && !back.disabled ? back : picker.opener)?.focus();
}

/** The points the dice shown score in category c, or null when there are not five dice. */
function dicePoints(c) {
  return store.state.dice.length === N_DICE ? pointsOf(store.state.dice, c, store.state.variant) : null;
}

export function renderCard() {
  // The best category is marked, except in a practice game (its advice stays hidden).
  const best = store.shown?.result && !store.shown.error && !practising() ? bestCategory() : undefined;
  for (const cell of document.querySelectorAll("[data-testid=cell]")) {
    const c = Number(cell.dataset.category);
    renderMine(cell, c, best === c);
  }
  const totals = sheetTotals(store.state.sheet);
  const threshold = store.rules.bonus.threshold;
  $("#subtotal").textContent = `${totals.upper} / ${threshold}`;
  const need = threshold - totals.upper;
  $("#bonus").textContent =
    totals.bonus > 0 ? `+${totals.bonus}` : totals.upperFull ? t("bonusMissed") : t("bonusNeed", need);
  $("#total").textContent = String(totals.total);
  $("#sheet-locked").hidden = store.game === null;
  renderTheirs();
  renderPicker();
}

function renderMine(cell, c, best) {
  const value = store.state.sheet[c];
  const points = value === null ? dicePoints(c) : null;
  const name = categoryName(c);
  cell.querySelector(".name").textContent = name;
  const shown = cell.querySelector(".value");
  shown.textContent = value !== null ? String(value) : points !== null ? t("preview", points) : t("emptyCell");
  shown.classList.toggle("preview", value === null && points !== null);
  cell.dataset.value = value === null ? "" : String(value);
  cell.classList.toggle("filled", value !== null);
  cell.classList.toggle("best", best);
  const open = cell.querySelector(".open");
  open.setAttribute("aria-expanded", String(store.picker?.who === "me" && store.picker.category === c));
  // The name is what the button shows (WCAG 2.5.3), with words for the marks: empty, a preview.
  const more = value !== null ? "" : points !== null ? `, ${t("previewName", points)}` : `, ${t("emptyName")}`;
  open.querySelector(".more").textContent = more;
  const quick = cell.querySelector(".quick-values");
  if (quick) renderChips(quick, c, value, points);
}

/** The chips of a category in its row: its scores, the pressed one written, the dice's points
 * marked; disabled while playing along. Rebuilt only when the rules' scores change. */
function renderChips(box, c, value, points) {
  const name = categoryName(c);
  const values = possible(store.state.variant, c);
  if (box.dataset.values !== values.join()) {
    box.dataset.values = values.join();
    box.replaceChildren(
      ...values.map((v) => {
        const chip = el("button", { type: "button", class: "chip", "data-value": v, text: String(v) });
        chip.addEventListener("click", () => {
          if (store.state.sheet[c] !== v) handlers.setSheet(c, v);
        });
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

/** Their column and its heading: hidden cells without an opponent; while playing along only
 * their turn's free categories can be tapped, and their last score until my next roll (to correct it). */
function renderTheirs() {
  const s = store.state;
  const card = $("#score-card");
  const playing = store.game !== null;
  const theirTurn = playing && store.stage.phase === "opponent";
  const correctable = playing ? correctableTheirTurn() : null; // their last score, mistyped
  card.classList.toggle("with-opponent", s.opponent !== null);
  card.classList.toggle("their-turn", theirTurn);
  const toggle = $("#opponent-toggle");
  toggle.setAttribute("aria-pressed", String(s.opponent !== null));
  toggle.disabled = playing;
  for (const button of document.querySelectorAll("[data-testid=opponent-cell]")) {
    const c = Number(button.dataset.category);
    const value = s.opponent?.[c] ?? null;
    const name = categoryName(c);
    button.hidden = s.opponent === null;
    button.querySelector(".name").textContent = t("opponentCell", name);
    button.querySelector(".value").textContent = value === null ? t("emptyCell") : String(value);
    button.querySelector(".more").textContent = value === null ? `, ${t("emptyName")}` : "";
    button.dataset.value = value === null ? "" : String(value);
    button.classList.toggle("filled", value !== null);
    button.setAttribute("aria-expanded", String(store.picker?.who === "opponent" && store.picker.category === c));
    button.disabled = playing && (!theirTurn || value !== null) && c !== correctable;
  }
  const totals = s.opponent ? sheetTotals(s.opponent) : null;
  $("#opponent-total").textContent = totals ? String(totals.total) : "";
  $("#opponent-subtotal").textContent = totals ? String(totals.upper) : "";
  $("#opponent-bonus").textContent = totals?.bonus > 0 ? "+35" : ""; // beside it, smaller: 52 px at 320 px wide
}

/** The category the verdict's option scores (at roll 3, or stopping early), if any: the first
 * in the order the aim shows (views/goal.js). */
function bestCategory() {
  const result = store.shown.action === "game" ? store.shown.result.advice : store.shown.result;
  return result?.options ? aimedOptions(result).ranked[0]?.option.category : undefined;
}

function renderPicker() {
  const picker = $("#picker");
  const open = store.picker;
  picker.hidden = open === null;
  if (open === null) return;
  if (open.who === "opponent") return renderTheirPicker(open.category);
  const c = open.category;
  const name = categoryName(c);
  const value = store.state.sheet[c];
  const points = value === null ? dicePoints(c) : null;
  $("#picker-title").textContent = name;
  placePicker(cellOf(c));

  const score = $("#picker-score");
  const scorable = value === null && points !== null && handlers.canScore();
  score.hidden = !scorable;
  const hints = [];
  if (scorable) {
    score.textContent = t("scoreHere", points, name);
    score.onclick = () => {
      handlers.closePicker();
      handlers.applyOption({ category: c });
    };
    if (store.state.roll < 3) hints.push(t("scoreEndsTurn"));
    if (!store.game) hints.push(t("scoreStartsGame"));
  }
  const locked = store.game !== null;
  if (locked) hints.push(practising() ? t("sheetLockedPractice") : t("sheetLocked"));
  else if (points !== null) hints.push(t("pickerDice", points));
  $("#picker-hint").textContent = hints.join(" ");

  const allowed = possible(store.state.variant, c);
  const ordered =
    points !== null && allowed.includes(points) ? [points, ...allowed.filter((v) => v !== points)] : allowed;
  renderValues(locked ? [] : withClear(ordered, value), name, value, points, (v) => {
    handlers.closePicker(true);
    handlers.setSheet(c, v);
  });
}

/** The picker of their cell: their possible scores (and Clear, outside a game). */
function renderTheirPicker(c) {
  const name = categoryName(c);
  const value = store.state.opponent?.[c] ?? null;
  $("#picker-title").textContent = t("opponentCell", name);
  placePicker(theirCellOf(c));
  $("#picker-score").hidden = true;
  $("#picker-hint").textContent = store.game ? t("opponentTurnPick") : "";
  const allowed = possible(store.state.variant, c);
  renderValues(store.game ? allowed : withClear(allowed, value), t("opponentCell", name), value, null, (v) => {
    handlers.closePicker(true);
    handlers.setOpponent(c, v);
  });
}

/** The scores `values`, then Clear (null) when the cell has a score `value`. */
const withClear = (values, value) => (value === null ? values : [...values, null]);

/** The picker's chips: `values` (null: Clear, the cell emptied), `value` pressed, `points` marked. */
function renderValues(values, name, value, points, choose) {
  const box = $("#picker-values");
  box.hidden = values.length === 0;
  box.setAttribute("aria-label", t("pickerValues", name));
  const chip = (v) => {
    const button = el("button", {
      type: "button",
      class: v === null ? "chip clear" : v === points ? "chip dice-points" : "chip",
      "data-value": v === null ? "" : v,
      "aria-pressed": v === null ? null : String(v === value),
      "aria-label": v === null ? t("clearCell", name) : t("setCell", name, v),
      text: v === null ? t("clearScore") : String(v),
    });
    button.addEventListener("click", () => choose(v));
    return button;
  };
  box.replaceChildren(...values.map(chip));
}

/** The picker sits at the bottom of the screen, or at the top when its cell is in the lower half
 * (so the cell stays in view). */
function placePicker(cell) {
  const rect = cell?.getBoundingClientRect();
  $("#picker").classList.toggle("top", rect !== undefined && rect.top > window.innerHeight / 2);
}
