// The advisor page: a position and its advice, a game played along and its review.
//
// This module wires the others: it binds the controls to the actions (actions/) and gives the
// views the handlers they call, connects the store to the one place that shows its changes
// (show.js), starts the worker (requests/), loads rules.json and reads the URL into the store.
// Data flows one way: a control calls an action, the action changes the store (update), show.js
// draws the change and sends the requests it needs, the worker's answers go into the store the
// same way. The page is usable at once: a position can be entered while the worker (Pyodide +
// NumPy + our package) loads, and advice follows every change.
//
// The game in progress is also kept on the device after every change (state/location.js, saved.js).
// Everything lives in the URL query, rewritten with history.replaceState on every change: a
// position in the CLI's format (yacht.core.position: s, d, r, v), or a game record (yacht.play.game: s, r,
// v, h) from the moment an option is acted on. A link is checked by Python, so a bad one shows
// the CLI's message. Text reaches the page only through textContent and attributes, never as HTML.

import {
  addDie,
  applyOption,
  clearDice,
  closeReview,
  cycleRoll,
  dismissNote,
  dismissOffer,
  fixLink,
  newGame,
  openDecision,
  openKept,
  openReview,
  redo,
  removeDie,
  rollForMe,
  setAim,
  setGoal,
  setLanguage,
  setOpponent,
  setRoll,
  setSheet,
  setTarget,
  setVariant,
  showLocation,
  undo,
} from "./actions/actions.js";
import {
  closePicker,
  openPicker,
  optionWhy,
  retryDecision,
  retryExplanation,
  reviewWhy,
  toggleWhy,
  verdictFocused,
} from "./actions/panels.js";
import { practiceRolls, practiceScore, setFeedback, startPractice, togglePracticeKeep } from "./actions/practice.js";
import { setOnline, wishPack } from "./actions/answers.js";
import { $, drawDie, el } from "./views/dom.js";
import {
  exportGames,
  importFile,
  reloadForUpdate,
  removeGame,
  restoreGame,
  savedPracticeFeedback,
  sharePage,
  shareKept,
  startDevice,
} from "./requests/device.js";
import { restartWorker, startWorker, stopWorker } from "./requests/requests.js";
import { setRules } from "./model/rules.js";
import { show } from "./show.js";
import { adoptLocation, readLocation } from "./state/location.js";
import { canScore, lastRemovable, onUpdate, practising, store, update } from "./state/store.js";
import { initialLanguage, setLanguage as setTextsLanguage, t } from "./texts/texts.js";
import { guardTaps } from "./views/taps.js";
import { bindAdvice } from "./views/advice.js";
import { buildCard } from "./views/card.js";
import { bindError } from "./views/error.js";
import { bindGames } from "./views/games.js";
import { buildGoal } from "./views/goal.js";
import { bindInput, renderLoading, renderStatic } from "./views/input.js";
import { bindNote } from "./views/note.js";
import { bindPractice } from "./views/practice.js";
import { bindReview } from "./views/review.js";
import { bindVerdict } from "./views/verdict.js";
import { bindCoach } from "./views/coach.js";
import { bindCoachDecision } from "./views/coach-decision.js";

/** What the views call (data flows one way: a view renders from the store and calls these). */
const handlers = {
  // In a practice game the sheet's picker scores through the practice (its opponent follows).
  // Acting on an option (far down "Every option", or from the sheet's picker) brings the next step
  // into view: the dice to enter and the verdict.
  applyOption: (option) => {
    if (practising()) practiceScore(option.category);
    else applyOption(option);
    showTurn();
  },
  canScore,
  fixLink,
  // After a game: another of the same kind (a practice with the same opponent setting).
  newGame: () => (practising() ? startPractice({ opponent: Boolean(store.game.opponent) }) : newGame()),
  openDecision,
  openReview,
  practiceRolls,
  removeDie,
  setGoal,
  wishPack,
  setOpponent,
  setSheet,
  setTarget,
  // The dice are drawn again: a die that had the focus gets it back.
  togglePracticeKeep: (index) => togglePracticeKeep(index, $("#slots").contains(document.activeElement)),
  openPicker,
  closePicker,
  verdictFocused,
  optionWhy,
  retryExplanation,
  reviewWhy,
  retryDecision,
  dismissNote,
  undoDelete: restoreGame,
  // A practice turn stopped with all five kept: the sheet's first free cell, in view, takes the score.
  showSheet: () => {
    const cell = document.querySelector("[data-testid=cell][data-value=''] button");
    cell?.scrollIntoView({ block: "center" });
    cell?.focus({ preventScroll: true });
  },
};

/** What the kept games' list and the offer to resume call. */
const gameHandlers = {
  open: (record) => openKept(record),
  resume: (record) => openKept(record, "advice-heading-still"),
  dismiss: dismissOffer,
  share: shareKept,
  remove: removeGame,
  exportGames,
  importFile,
};

/** Scroll the dice and the verdict (from the roll to the verdict's buttons) into view, unless
 * they are there: to the top of the page when that shows them, else to the top of their card.
 * Smoothly, unless the player prefers reduced motion. */
function showTurn() {
  const top = $(".play").getBoundingClientRect().top;
  const bottom = $(".verdict-buttons").getBoundingClientRect().bottom;
  if (top >= 0 && bottom <= innerHeight) return;
  const y = bottom + scrollY <= innerHeight ? 0 : Math.max(0, top + scrollY - 8);
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: y, behavior: reduced ? "auto" : "smooth" });
}

/** The views that act get their handlers once, before anything is drawn. */
function bindViews() {
  bindAdvice(handlers);
  bindError(handlers);
  bindInput(handlers);
  bindPractice(handlers);
  bindReview(handlers);
  bindVerdict(handlers);
  bindCoach(handlers);
  bindCoachDecision(handlers);
  bindNote(handlers);
  bindGames(gameHandlers);
}

/** Every control's handler, and the keyboard and history events. */
function bindControls() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.lang));
  }
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.addEventListener("change", () => {
      setRoll(Number(radio.value));
    });
  }
  for (const radio of document.querySelectorAll("input[name=aim]")) {
    radio.addEventListener("change", () => setAim(radio.value));
  }
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    radio.addEventListener("change", () => setVariant(radio.value));
  }
  const keypad = $("#keypad");
  for (let face = 1; face <= 6; face++) {
    const button = el("button", { type: "button", class: "face", "data-face": face });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => addDie(face));
    keypad.append(button);
  }
  $("#clear-dice").addEventListener("click", clearDice);
  $("#roll-for-me").addEventListener("click", rollForMe);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#review-open").addEventListener("click", () => (store.reviewOpen ? closeReview() : openReview()));
  $("#review-close").addEventListener("click", closeReview);
  $("#back-to-game").addEventListener("click", () => history.back());
  $("#app-note-reload").addEventListener("click", reloadForUpdate);
  $("#retry").addEventListener("click", () => {
    if (store.rules === null) return location.reload(); // the page itself did not load
    restartWorker();
  });
  $("#share").addEventListener("click", sharePage);
  $("#why").addEventListener("click", toggleWhy);
  bindStartMenu();
  // For keyboards: from the dice to the verdict's action, from the verdict to the sheet.
  for (const skip of document.querySelectorAll("[data-skip]")) {
    skip.addEventListener("click", () => {
      const apply = $("#verdict-apply");
      const target =
        skip.dataset.skip === "verdict"
          ? apply.disabled
            ? $("#advice-heading")
            : apply
          : document.querySelector("#card-rows button:not(:disabled)");
      target?.focus();
    });
  }
  bindPracticeSetup();

  // Keyboard: digits add dice, Backspace deletes the last, Delete clears, R cycles the roll,
  // Escape closes the card's picker; Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo. A field (the
  // score to reach, the link box) takes its own keys: the shortcuts act only outside fields.
  document.addEventListener("keydown", (event) => {
    if (store.rules === null || event.altKey) return;
    if (event.key === "Escape" && store.picker !== null) {
      closePicker(true);
      event.preventDefault();
      return;
    }
    if (inField(event.target)) return;
    const key = event.key.toLowerCase();
    if (practising() && !event.ctrlKey && !event.metaKey) {
      // A practice game: 1–5 mark or release a die to keep, R rolls.
      if (/^[1-5]$/.test(event.key)) togglePracticeKeep(Number(event.key) - 1);
      else if (key === "r") practiceRolls();
      else return;
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey) {
      if (key === "z" && !event.shiftKey) undo();
      else if ((key === "z" && event.shiftKey) || key === "y") redo();
      else return;
    } else if (/^[1-6]$/.test(event.key)) addDie(Number(event.key));
    else if (event.key === "Backspace" && lastRemovable() >= 0) removeDie(lastRemovable());
    else if (event.key === "Delete") clearDice();
    else if (key === "r") cycleRoll();
    else return;
    event.preventDefault();
  });

  // Back and Forward: the entry's URL and state, checked by Python like a link.
  window.addEventListener("popstate", () => {
    if (store.rules === null) return;
    showLocation();
  });
}

/** show(shown) of a panel its button opens and closes (aria-expanded follows). */
const disclosure = (panel, button) => (shown) => {
  panel.hidden = !shown;
  button.setAttribute("aria-expanded", String(shown));
};

/** New game (in the header) and its choices: alone, against a rival (who starts), practice. */
function bindStartMenu() {
  const menu = $("#start-menu");
  const open = $("#new-game");
  const show = disclosure(menu, open);
  open.addEventListener("click", () => {
    show(menu.hidden);
    if (menu.hidden) return;
    const kept = store.game !== null || store.state.sheet.some((v) => v !== null);
    $("#start-note").textContent = kept ? t("startNote") : "";
    menu.querySelector("[data-start]").focus();
  });
  $("#start-cancel").addEventListener("click", () => {
    show(false);
    open.focus();
  });
  for (const choice of menu.querySelectorAll("[data-start]")) {
    choice.addEventListener("click", () => {
      show(false);
      const kind = choice.dataset.start;
      if (kind === "practice") return openPracticeSetup(); // its set-up first: opponent, grading
      newGame({ rival: kind !== "alone", theyStart: kind === "second" });
      window.scrollTo(0, 0);
      $("#keypad button")?.focus({ preventScroll: true });
    });
  }
}

/** Open the practice's setup (from Practice, or New game → Practice): in view, Start focused. */
let openPracticeSetup = () => {};

/** The practice's setup (under Practice): the opponent, when the grading shows, Start. */
function bindPracticeSetup() {
  const setup = $("#practice-setup");
  const open = $("#practice-open");
  const show = disclosure(setup, open);
  const shown = (visible) => {
    show(visible);
    for (const radio of document.querySelectorAll("input[name=feedback]")) {
      radio.checked = radio.value === store.practiceFeedback;
    }
    if (!setup.hidden) {
      setup.scrollIntoView({ block: "center" });
      $("#practice-start").focus({ preventScroll: true });
    }
  };
  openPracticeSetup = () => shown(true);
  open.addEventListener("click", () => shown(setup.hidden));
  for (const radio of document.querySelectorAll("input[name=feedback]")) {
    radio.addEventListener("change", () => setFeedback(radio.value));
  }
  $("#practice-cancel").addEventListener("click", () => {
    show(false);
    open.focus();
  });
  $("#practice-start").addEventListener("click", () => {
    show(false);
    startPractice({ opponent: $("#practice-opponent").checked });
    window.scrollTo(0, 0);
  });
}

/** Whether a key pressed in `target` belongs to a field: a text or number box, a menu, an editable
 * element (a radio or a checkbox is a control, not a field). */
function inField(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("select, textarea, [contenteditable]:not([contenteditable=false])")) return true;
  const input = target.closest("input");
  return input !== null && !["radio", "checkbox", "button", "submit", "reset"].includes(input.type);
}

async function main() {
  guardTaps();
  onUpdate(show);
  const language = initialLanguage();
  setTextsLanguage(language);
  update("none", (s) => {
    s.language = language;
    s.practiceFeedback = savedPracticeFeedback() ?? s.practiceFeedback;
    s.online = navigator.onLine;
  });
  window.addEventListener("online", () => setOnline(true));
  window.addEventListener("offline", () => setOnline(false));
  bindViews();
  startWorker(); // the runtime loads while the rest of the page starts
  bindControls();
  renderStatic();
  renderLoading();
  let rules;
  try {
    const response = await fetch("rules.json");
    if (!response.ok) throw new Error(`rules.json: HTTP ${response.status}`);
    rules = await response.json();
  } catch (error) {
    return stopWorker({ step: "page", message: error.message });
  }
  setRules(rules);
  update("none", (s) => (s.rules = rules));
  buildCard(handlers);
  buildGoal(handlers);
  startDevice();
  update("rules", () => {
    adoptLocation();
    readLocation();
  });
}

main();
