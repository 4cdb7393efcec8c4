// What the controls do: every change of the position or the game goes through change(), so the
// URL, the views and the advice follow it.

import { requestAdvice, requestPractice, requestReview } from "./advisor.js";
import { ascending, N_DICE, randomFace } from "./dice.js";
import { $ } from "./dom.js";
import { decisionCount, readQuery } from "./formats.js";
import { render } from "./render.js";
import { categoryName, possible } from "./rules.js";
import { newGameId } from "./saved.js";
import {
  canUndo,
  currentQuery,
  gameView,
  leaveGame,
  practising,
  restore,
  snapshot,
  startGame,
  store,
  sync,
  writeURL,
} from "./store.js";
import { t } from "./texts.js";
import { markStale, renderAdvice } from "./view-advice.js";
import { renderInput } from "./view-input.js";
import { renderReview } from "./view-review.js";
import { clearNote, showNote } from "./view-note.js";
import { dropOffer, refreshGames } from "./games.js";

/** Apply a change (of the position, or of the game); the URL, the page and the advice follow.
 * Any change but undo and redo forgets the steps undone. `push`: a new history entry. */
export function change(mutate, { redo = [], push = false } = {}) {
  mutate(store.state);
  dropOffer();
  store.redoStack = redo;
  store.link = null;
  store.generation++;
  clearNote();
  sync();
  writeURL(push);
  refreshGames();
  renderInput();
  if (store.shown?.result && store.shown.query === currentQuery())
    renderAdvice(); // only the entry changed
  else {
    markStale();
    // What to enter, or a practice game's turn (its advice hidden): at once.
    if (store.game && (store.view.phase === "dice" || practising())) renderAdvice();
    requestAdvice();
  }
  requestReview();
  requestPractice();
}

export function addDie(face) {
  if (store.game) {
    if (store.view.phase !== "dice") return;
    change(() => {
      store.entry.push(face);
      if (store.view.dice.length + 1 === N_DICE) commitRoll();
    });
    return;
  }
  change((s) => {
    if (s.dice.length === N_DICE) s.dice = [];
    s.dice.push(face);
    if (s.roll === 0) s.roll = 1;
  });
}

/** The entered dice are complete: they are the next roll of the record. The focus waits on the
 * advice's heading, then goes to the verdict's action once the advice is shown (view-verdict). */
export function commitRoll() {
  store.focusVerdict = true;
  $("#advice-heading").focus();
  const v = gameView();
  const dice = v.dice;
  if (store.game.keep) {
    const last = store.game.turns.at(-1);
    last.keeps.push(store.game.keep);
    last.rolls.push(dice);
    store.game.keep = null;
  } else {
    store.game.turns.push({ rolls: [dice], keeps: [], category: null });
  }
  store.entry = [];
}

/** Dice the page rolls: the missing ones, at random. */
export function rollForMe() {
  const missing = N_DICE - (store.game ? store.view.dice.length : store.state.dice.length);
  if (missing <= 0 || (store.game && store.view.phase !== "dice")) return;
  const faces = Array.from({ length: missing }, randomFace);
  if (store.game) {
    change(() => {
      store.entry.push(...faces);
      commitRoll();
    });
  } else {
    change((s) => {
      s.dice.push(...faces);
      if (s.roll === 0) s.roll = 1;
    });
  }
  if (!store.focusVerdict) $("#keypad button")?.focus();
}

export function removeDie(index) {
  if (!store.game) return change((s) => s.dice.splice(index, 1));
  if (store.view.locked[index]) return;
  if (store.view.phase === "dice") {
    return change(() => store.entry.splice(index - store.view.locked.filter(Boolean).length, 1));
  }
  // Correcting dice already recorded: the roll goes back to being entered, without that die.
  const rest = store.view.dice.filter((_, i) => !store.view.locked[i] && i !== index);
  change(() => reopenRoll(rest));
}

/** Take the current roll back out of the record; `rest` of its new dice stay entered. */
export function reopenRoll(rest) {
  const last = store.game.turns.at(-1);
  last.rolls.pop();
  if (last.rolls.length === 0) store.game.turns.pop();
  else store.game.keep = last.keeps.pop();
  store.entry = [...rest];
  if (decisionCount(store.game) === 0 && !store.game.keep) leaveGame();
}

export function clearDice() {
  if (!store.game) return change((s) => (s.dice = []));
  if (store.view.phase === "dice") return change(() => (store.entry = []));
  if (store.view.phase === "choice" && store.view.locked.some((x) => !x)) change(() => reopenRoll([]));
}

export function cycleRoll() {
  if (store.game) return;
  change((s) => {
    s.roll = (s.roll % 3) + 1;
  });
}

/** Act on an option (or a score on the sheet): the game moves on. */
export function applyOption(option) {
  change(() => {
    if (!store.game) startGame();
    if (option.category !== undefined) scoreCategory(option.category);
    else {
      store.game.keep = ascending(option.keep);
      store.entry = [];
    }
  });
  // The focus waits on the keypad for the next dice (the handler brings them into view: main.js).
  $("#keypad button")?.focus({ preventScroll: true });
}

export function scoreCategory(c) {
  store.game.turns.at(-1).category = c;
  store.game.keep = null;
  store.entry = [];
}

/** Take back the record's last step: a keep, a roll, a category, or the opponent's turn after
 * my last one. */
export function undo() {
  if (!canUndo()) return;
  const redo = [...store.redoStack, snapshot()];
  change(
    () => {
      const last = store.game.turns.at(-1);
      const rival = store.game.opponent;
      const finished = store.game.turns.filter((turn) => turn.category !== null).length;
      if (store.game.keep) store.game.keep = null;
      else if (rival?.turns.length && rival.turns.length === finished && last.category !== null) rival.turns.pop();
      else if (last.category !== null) last.category = null;
      else if (last.rolls.length > 1) {
        last.rolls.pop();
        store.game.keep = last.keeps.pop();
      } else store.game.turns.pop();
      store.entry = [];
      if (decisionCount(store.game) === 0 && !store.game.keep) leaveGame();
    },
    { redo },
  );
}

export function redo() {
  if (!store.redoStack.length) return;
  const rest = store.redoStack.slice(0, -1);
  const next = store.redoStack.at(-1);
  change(() => restore(structuredClone(next)), { redo: rest });
}

export function setVariant(variant) {
  if (store.game) return;
  const cleared = [];
  change((s) => {
    s.variant = variant;
    s.sheet.forEach((v, c) => {
      if (v !== null && !possible(variant, c).includes(v)) {
        s.sheet[c] = null;
        cleared.push(c);
      }
    });
    s.opponent?.forEach((v, c) => {
      if (v !== null && !possible(variant, c).includes(v)) s.opponent[c] = null;
    });
  });
  if (cleared.length) showNote(t("variantCleared", cleared.map(categoryName).join(", ")));
}

export function setSheet(c, value) {
  if (store.game) return;
  change((s) => {
    s.sheet[c] = value;
  });
}

/** The goal of the position: "none", "opponent" (an empty sheet of theirs to fill) or "target"
 * (a score to reach, 200 to start from). */
export function setGoal(kind) {
  if (store.game) return;
  change((s) => {
    s.opponent = kind === "opponent" ? (s.opponent ?? s.sheet.map(() => null)) : null;
    s.target = kind === "target" ? (s.target ?? DEFAULT_TARGET) : null;
  });
}

/** A score to start "a score to reach" from. */
export const DEFAULT_TARGET = 200;

export function setOpponent(c, value) {
  if (store.game) return recordOpponentTurn(c, value);
  if (!store.state.opponent) return;
  change((s) => {
    s.opponent[c] = value;
  });
}

/** Playing along with an opponent: their turn, due after mine, scored `points` in category c. */
export function recordOpponentTurn(c, points) {
  if (store.view?.phase !== "opponent" || points === null || store.view.opponent[c] !== null) return;
  change(() => store.game.opponent.turns.push({ category: c, points }));
}

export function setTarget(value) {
  if (store.game || store.state.target === null) return;
  change((s) => {
    s.target = value;
  });
}

/** A new game: alone, or against a rival (`rival`: true; false: none; undefined: as before),
 * who starts when `theyStart`. A game played along stays in the history: Back returns to it. */
export function newGame({ rival = undefined, theyStart = false } = {}) {
  const wasGame = store.game !== null;
  store.gameId = newGameId(); // the game before stays kept on the device
  store.reviewOpen = false;
  change(
    (s) => {
      if (store.game) leaveGame();
      s.sheet = s.sheet.map(() => null);
      const withRival = rival ?? s.opponent !== null;
      s.opponent = withRival ? s.sheet.map(() => null) : null;
      if (rival !== undefined) s.target = null;
      s.dice = [];
      s.roll = 0;
    },
    { push: wasGame },
  );
  store.theyStart = theyStart;
  store.backToGame = false;
  writeURL();
  render();
}

export async function share() {
  const url = location.href;
  clearNote();
  try {
    if (navigator.share) {
      await navigator.share({ title: document.title, url });
      showNote(t("shared"));
      return;
    }
    await navigator.clipboard.writeText(url);
    showNote(t("copied"));
  } catch (error) {
    if (error?.name === "AbortError") return; // the user closed the share sheet
    showNote(t("copyFailed"), url, t(store.game ? "linkLabelGame" : "linkLabel"));
  }
}

/** Apply the fix a bad link's message offers (view-error.js): what could be read of the link
 * stays, the part at fault is cleared, and the page goes on from there. */
export function fixLink(fix) {
  change((s) => {
    if (fix.kind === "cell") s.sheet[fix.category] = null;
    else if (fix.kind === "sheet") s.sheet = s.sheet.map(() => null);
    else if (fix.kind === "dice") {
      s.dice = [];
      s.roll = 0;
    } else if (fix.kind === "variant") s.variant = store.rules.default_variant;
    else if (fix.kind === "goal") {
      s.opponent = null;
      s.target = null;
    }
  });
  renderInput();
}

// The review panel --------------------------------------------------------------------------

export function openReview() {
  if (!store.game || decisionCount(store.game) === 0) return;
  store.reviewOpen = true;
  writeURL();
  renderReview();
  requestReview();
  $("#review").scrollIntoView({ block: "start" });
  $("#review-heading").focus({ preventScroll: true });
}

export function closeReview() {
  store.reviewOpen = false;
  writeURL();
  renderReview();
  $("#review-open").focus();
}

/** Open a reviewed decision's position with its advice, in a new history entry (Back returns). */
export function openDecision(decision) {
  writeURL(); // this entry keeps the game with the review open
  store.backToGame = true;
  store.reviewOpen = false;
  store.game = null;
  store.entry = [];
  store.redoStack = [];
  Object.assign(store.state, readQuery(decision.query));
  store.link = null;
  store.generation++;
  sync();
  writeURL(true);
  render();
  markStale();
  requestAdvice();
  window.scrollTo(0, 0);
  $("#advice-heading").focus({ preventScroll: true });
}
