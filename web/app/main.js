// The advisor page: a position and its advice, a game played along and its review.
//
// This module wires the others: it binds the controls to the actions (actions.js) and gives the
// views the handlers they call (data flows one way: views render from the store and import no
// action), starts the worker (advisor.js), loads rules.json and reads the URL into the store
// (store.js). The page is usable at once: a position can be entered while the worker (Pyodide +
// NumPy + our package) loads, and advice follows every change.
//
// The game in progress is also kept on the device after every change (saved.js, games.js).
// Everything lives in the URL query, rewritten with history.replaceState on every change: a
// position in the CLI's format (yacht.core.position: s, d, r, v), or a game record (yacht.play.game: s, r,
// v, h) from the moment an option is acted on. A link is checked by Python, so a bad one shows
// the CLI's message. Text reaches the page only through textContent and attributes, never as HTML.

import {
  addDie,
  applyOption,
  change,
  clearDice,
  closeReview,
  fixLink,
  openDecision,
  openReview,
  cycleRoll,
  newGame,
  redo,
  removeDie,
  rollForMe,
  setGoal,
  setOpponent,
  setSheet,
  setTarget,
  setVariant,
  share,
  undo,
} from "./actions.js";
import {
  bindAdvisor,
  requestAdvice,
  requestDecisionExplanation,
  requestExplanation,
  requestPractice,
  requestReview,
  setPageState,
  startAdvisor,
} from "./advisor.js";
import { $, drawDie, el } from "./dom.js";
import { adoptGameId, dropOffer, refreshGames, startGames } from "./games.js";
import { reloadForUpdate } from "./offline.js";
import { render } from "./render.js";
import { setRules } from "./rules.js";
import { guardTaps } from "./taps.js";
import {
  loadFeedbackSetting,
  opponentReady,
  practiceRolls,
  practiceScore,
  setFeedback,
  startPractice,
  togglePracticeKeep,
} from "./practice.js";
import { canScore, currentQuery, historyState, lastRemovable, practising, readLocation, store } from "./store.js";
import { initialLanguage, saveLanguage, setLanguage, t } from "./texts.js";
import { bindAdvice, markStale, renderAdvice } from "./view-advice.js";
import { buildCard, closePicker } from "./view-card.js";
import { bindError } from "./view-error.js";
import { buildGoal, renderGoal } from "./view-goal.js";
import { bindInput, renderLoading, renderStatic } from "./view-input.js";
import { bindNote, clearNote, showNote } from "./view-note.js";
import { bindPractice } from "./view-practice.js";
import { bindReview } from "./view-review.js";
import { bindVerdict } from "./view-verdict.js";
import { bindCoach, toggleWhy } from "./view-coach.js";
import { bindCoachDecision } from "./view-coach-decision.js";

/** What the views call (data flows one way: a view renders from the store and calls these). */
const handlers = {
  // In a practice game the sheet's picker scores through the practice (its opponent follows).
  explain: () => requestExplanation(),
  explainDecision: (record, index) => requestDecisionExplanation(record, index),
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
  opponentReady,
  practiceRolls,
  removeDie,
  setGoal,
  setOpponent,
  setSheet,
  setTarget,
  togglePracticeKeep,
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
  bindAdvisor(handlers);
  bindReview(handlers);
  bindVerdict(handlers);
  bindCoach(handlers);
  bindCoachDecision(handlers);
}

/** Every control's handler, and the keyboard and history events. */
function bindControls() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      store.language = button.dataset.lang;
      setLanguage(store.language);
      saveLanguage(store.language);
      if (store.rules) render();
      else renderStatic();
      refreshGames(); // the kept games' words and dates too
    });
  }
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.addEventListener("change", () => {
      if (!store.game) change((s) => (s.roll = Number(radio.value)));
    });
  }
  for (const radio of document.querySelectorAll("input[name=aim]")) {
    radio.addEventListener("change", () => {
      store.aim = radio.value;
      renderGoal();
      renderAdvice();
    });
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
    store.advisor?.terminate();
    startAdvisor();
    renderAdvice();
    requestAdvice();
  });
  $("#share").addEventListener("click", share);
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

  bindNote();

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
      if (kind === "practice") startPractice({ opponent: $("#practice-opponent").checked });
      else newGame({ rival: kind !== "alone", theyStart: kind === "second" });
      window.scrollTo(0, 0);
      if (kind !== "practice") $("#keypad button")?.focus({ preventScroll: true });
    });
  }
}

/** The practice's setup (under Practice): the opponent, when the grading shows, Start. */
function bindPracticeSetup() {
  const setup = $("#practice-setup");
  const open = $("#practice-open");
  const show = disclosure(setup, open);
  open.addEventListener("click", () => {
    show(setup.hidden);
    for (const radio of document.querySelectorAll("input[name=feedback]")) {
      radio.checked = radio.value === store.practiceFeedback;
    }
    if (!setup.hidden) $("#practice-start").focus();
  });
  for (const radio of document.querySelectorAll("input[name=feedback]")) {
    radio.addEventListener("change", () => {
      setFeedback(radio.value);
      requestPractice();
    });
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

/** Show what the URL and history.state say (after Back / Forward, or a kept game opened). */
function showLocation() {
  readLocation();
  adoptGameId(currentQuery(), history.state?.id);
  store.generation++;
  clearNote();
  dropOffer();
  render();
  markStale();
  requestAdvice();
  requestReview();
  requestPractice();
}

/** What a kept game's buttons do (games.js): open it here (its keep and entry too), or share
 * its link. Opening another game keeps this one: it is saved already. */
const gameHandlers = {
  open: (record) => {
    store.gameId = record.id;
    const state = { ...historyState(), keep: record.keep, entry: record.entry, redo: [], back: false, review: false };
    history.pushState(state, "", `${location.pathname}?${record.query}`);
    showLocation();
  },
  share: async (record) => {
    const url = new URL(`?${record.query}`, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      showNote(t("copied"));
    } catch {
      showNote(t("copyFailed"), url, t("linkLabelGame"));
    }
  },
};

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
  store.language = initialLanguage();
  setLanguage(store.language);
  loadFeedbackSetting();
  bindViews();
  startAdvisor(); // the runtime loads while the rest of the page starts
  bindControls();
  renderStatic();
  renderLoading();
  try {
    const response = await fetch("rules.json");
    if (!response.ok) throw new Error(`rules.json: HTTP ${response.status}`);
    store.rules = await response.json();
    setRules(store.rules);
  } catch (error) {
    store.advisor.terminate();
    store.loadError = { step: "page", message: error.message };
    setPageState("error");
    renderAdvice();
    return;
  }
  // The entry, the sheet and the rest act on the rules: usable from now on (index.html).
  for (const part of document.querySelectorAll("[data-needs-rules]")) part.inert = false;
  startGames(gameHandlers);
  readLocation();
  buildCard(handlers);
  buildGoal(handlers);
  render();
  refreshGames();
  requestAdvice();
}

main();
