// The input: the texts of the static page, the roll, the dice being entered, the game's status
// and buttons (undo, redo, review), and the loading steps.

import { N_DICE } from "../model/dice.js";
import { $, drawDie, el } from "./dom.js";
import { canUndo, lastRemovable, practising, store } from "../state/store.js";
import { t } from "../texts/texts.js";
import { practiceSlots } from "./practice.js";

let handlers = null;

/** The handlers the input calls (main.js): removeDie(index), togglePracticeKeep(index). */
export function bindInput(given) {
  handlers = given;
}

export function renderStatic() {
  document.documentElement.lang = store.language;
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("#guide-link").href = t("guideHref");
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
    if (node.classList.contains("key")) node.title = t(node.dataset.i18nLabel); // an icon's name on hover
  }
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === store.language));
  }
  for (const button of document.querySelectorAll("#keypad button")) {
    button.setAttribute("aria-label", t("addDie", button.dataset.face));
  }
}

export function renderInput() {
  const playing = store.game !== null;
  // Roll and variant: the game's own while playing along.
  // Before rolling (r=0) the dice to enter are roll 1's: Roll 1 is shown selected.
  const roll = Math.max(store.state.roll, 1);
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.checked = Number(radio.value) === roll;
    radio.disabled = playing;
  }
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    radio.checked = radio.value === store.state.variant;
    radio.disabled = playing;
  }
  // Beside the rules: why they cannot change during a game.
  $("#variant-hint").textContent = playing ? t("rulesInGame") : t("variantHint");
}

export function renderDice() {
  if (practising()) return renderPracticeDice();
  const playing = store.game !== null;
  const locked = playing ? store.stage.locked : [];
  const slots = store.state.dice.map((face, i) => {
    if (locked[i]) {
      return el(
        "span",
        { class: "slot locked", role: "img", "data-testid": "die", "aria-label": t("keptDie", face) },
        drawDie(face, "large"),
      );
    }
    const button = el("button", {
      type: "button",
      class: "slot",
      "data-testid": "die",
      "aria-label": t("removeDie", i + 1, face),
    });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => handlers.removeDie(i));
    return button;
  });
  while (slots.length < N_DICE) slots.push(el("span", { class: "slot empty", "aria-hidden": "true" }));
  $("#slots").replaceChildren(...slots);

  const missing = N_DICE - store.state.dice.length;
  const nLocked = locked.filter(Boolean).length;
  const entering = !playing || store.stage.phase === "dice";
  let hint;
  if (playing && store.stage.phase === "over") hint = "";
  else if (playing && store.stage.phase === "choice") hint = nLocked < N_DICE ? t("diceHintChoice") : "";
  else if (nLocked && missing) hint = t("diceHintKept", missing);
  else if (store.state.dice.length === 0) hint = t("diceHintEmpty");
  else hint = missing ? t("diceHintMore", missing) : t("diceHintFull");
  $("#dice-hint").textContent = hint;

  const removable = lastRemovable() >= 0 && (!playing || store.stage.phase !== "over");
  $("#clear-dice").disabled = !removable;
  $("#roll-for-me").disabled = !(entering && missing > 0);
  for (const button of document.querySelectorAll("#keypad button")) button.disabled = !entering;
}

/** A practice game's dice: the page rolls them (no keypad), a tap marks a die to keep. */
function renderPracticeDice() {
  const slots = practiceSlots(handlers.togglePracticeKeep);
  while (slots.length < N_DICE) slots.push(el("span", { class: "slot empty", "aria-hidden": "true" }));
  $("#slots").replaceChildren(...slots);
  const v = store.stage;
  const hint = v.phase === "choice" ? (v.roll < 3 ? t("practiceChoose") : t("practiceLast")) : "";
  $("#dice-hint").textContent = hint;
  $("#clear-dice").disabled = true;
  $("#roll-for-me").disabled = true;
  for (const button of document.querySelectorAll("#keypad button")) button.disabled = true;
}

export function renderGameBar() {
  const status = $("#game-status");
  if (practising() && store.stage.phase !== "over")
    status.textContent = t("practiceStatus", store.stage.turn, Math.max(store.stage.roll, 1));
  else if (!store.game) status.textContent = t("playHint");
  else if (store.stage.phase === "over") status.textContent = t("playingOver");
  else if (store.stage.phase === "opponent") status.textContent = t("playingTheirs");
  else status.textContent = t("playing", store.stage.turn, Math.max(store.stage.roll, 1));
  status.classList.toggle("playing", store.game !== null);
  $("#undo").disabled = !canUndo() || practising(); // a practice game's choices stand
  $("#redo").disabled = store.redoStack.length === 0 || practising();
  $("#back-to-game").hidden = !store.backToGame;
  $("#undo").hidden = store.backToGame; // a position opened from a review: Back is the way back
  $("#redo").hidden = store.backToGame;
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
