// Rendering ------------------------------------------------------------------------------------

import { applyOption, canScore, canUndo, lastRemovable, removeDie, setSheet } from "./actions.js";
import { N_DICE } from "./dice.js";
import { $, drawDie, el } from "./dom.js";
import { categoryName, pointsOf, possible, sheetTotals } from "./rules.js";
import { store } from "./store.js";
import { t } from "./texts.js";
import { renderReview } from "./view-review.js";

export function renderStatic() {
  document.documentElement.lang = store.language;
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === store.language));
  }
  for (const button of document.querySelectorAll("#keypad button")) {
    button.setAttribute("aria-label", t("addDie", button.dataset.face));
  }
}

/** The sheet's rows: one select per category (built once). */
export function buildSheet() {
  const bodies = [$("#upper"), $("#lower")];
  store.rules.categories.en.forEach((_, c) => {
    const select = el("select", { id: `category-${c}`, "data-category": c });
    select.addEventListener("change", () => setSheet(c, select.value === "" ? null : Number(select.value)));
    const row = el(
      "tr",
      { "data-category": c },
      el("th", { scope: "row" }, el("label", { for: `category-${c}`, class: "category-name" })),
      el("td", { class: "cell" }, select),
      el("td", { class: "preview" }),
    );
    bodies[c < store.rules.upper ? 0 : 1].append(row);
  });
  fillSheetChoices();
}

/** Each select offers the empty cell and the scores its category can take under the variant. */
export function fillSheetChoices() {
  for (const select of document.querySelectorAll("select[data-category]")) {
    const c = Number(select.dataset.category);
    select.replaceChildren(
      el("option", { value: "", text: t("emptyCell") }),
      ...possible(store.state.variant, c).map((v) => el("option", { value: v, text: String(v) })),
    );
  }
}

export function renderInput() {
  const playing = store.game !== null;
  // Roll and variant: the game's own while playing along.
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.checked = Number(radio.value) === store.state.roll;
    radio.disabled = playing;
  }
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    radio.checked = radio.value === store.state.variant;
    radio.disabled = playing;
  }
  renderDice();
  renderSheet();
  renderGameBar();
}

export function renderDice() {
  const playing = store.game !== null;
  const locked = playing ? store.view.locked : [];
  const slots = store.state.dice.map((face, i) => {
    if (locked[i]) {
      return el(
        "span",
        { class: "slot locked", role: "img", "aria-label": t("keptDie", face) },
        drawDie(face, "large"),
      );
    }
    const button = el("button", { type: "button", class: "slot", "aria-label": t("removeDie", i + 1, face) });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => removeDie(i));
    return button;
  });
  while (slots.length < N_DICE) slots.push(el("span", { class: "slot empty", "aria-hidden": "true" }));
  $("#slots").replaceChildren(...slots);

  const missing = N_DICE - store.state.dice.length;
  const nLocked = locked.filter(Boolean).length;
  const entering = !playing || store.view.phase === "dice";
  let hint;
  if (playing && store.view.phase === "over") hint = "";
  else if (playing && store.view.phase === "choice") hint = nLocked < N_DICE ? t("diceHintChoice") : "";
  else if (nLocked && missing) hint = t("diceHintKept", missing);
  else if (store.state.dice.length === 0) hint = t("diceHintEmpty");
  else hint = missing ? t("diceHintMore", missing) : t("diceHintFull");
  $("#dice-hint").textContent = hint;

  const removable = lastRemovable() >= 0 && (!playing || store.view.phase !== "over");
  $("#backspace").disabled = !removable;
  $("#clear-dice").disabled = !removable;
  $("#roll-for-me").disabled = !(entering && missing > 0);
  for (const button of document.querySelectorAll("#keypad button")) button.disabled = !entering;
}

export function renderSheet() {
  const playing = store.game !== null;
  const complete = store.state.dice.length === N_DICE;
  const scorable = canScore();
  for (const row of document.querySelectorAll("tr[data-category]")) {
    const c = Number(row.dataset.category);
    const value = store.state.sheet[c];
    row.querySelector("label").textContent = categoryName(c);
    const select = row.querySelector("select");
    select.value = value === null ? "" : String(value);
    select.options[0].textContent = t("emptyCell");
    select.disabled = playing;
    row.classList.toggle("filled", value !== null);
    const preview = row.querySelector(".preview");
    if (value === null && complete) {
      const points = pointsOf(store.state.dice, c, store.state.variant);
      if (scorable) {
        const button = el("button", {
          type: "button",
          class: "score-here",
          "aria-label": t("scoreHere", points, categoryName(c)),
          text: t("preview", points),
        });
        button.addEventListener("click", () => applyOption({ category: c }));
        preview.replaceChildren(button);
      } else {
        preview.replaceChildren(el("span", { "aria-hidden": "true", text: t("preview", points) }));
        preview.append(el("span", { class: "visually-hidden", text: t("previewName", points) }));
      }
    } else {
      preview.replaceChildren();
    }
  }
  const totals = sheetTotals(store.state.sheet);
  $("#subtotal").textContent = `${totals.upper} / ${store.rules.bonus.threshold}`;
  const need = store.rules.bonus.threshold - totals.upper;
  $("#bonus").textContent = totals.bonus > 0 ? `+${totals.bonus}` : totals.upperFull ? "0" : t("bonusNeed", need);
  $("#total").textContent = String(totals.total);
  $("#sheet-locked").hidden = !playing;
}

export function renderGameBar() {
  const status = $("#game-status");
  if (!store.game) status.textContent = t("playHint");
  else if (store.view.phase === "over") status.textContent = t("playingOver");
  else status.textContent = t("playing", store.view.turn, store.view.roll);
  status.classList.toggle("playing", store.game !== null);
  $("#undo").disabled = !canUndo();
  $("#redo").disabled = store.redoStack.length === 0;
  $("#back-to-game").hidden = !store.backToGame;
  $("#link-label").textContent = t(store.game ? "linkLabelGame" : "linkLabel");
  renderReview();
}

export function renderLoading() {
  const box = $("#loading");
  box.hidden = store.ready;
  const items = ["runtime", "numpy", "package", "table"].map((step) => {
    const info = store.steps[step];
    const name = step === "table" && info?.variant ? `${t("steps").table} (${t(info.variant)})` : t("steps")[step];
    const status = info ? t("stepStates")[info.state] : "";
    return el("li", { class: `step ${info?.state ?? "waiting"}`, text: status ? `${name}: ${status}` : name });
  });
  $("#steps").replaceChildren(...items);
}
