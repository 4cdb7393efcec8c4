// What a practice game's controls do. A practice game is a game record with a seed (store.game
// .practice; yacht.play.game's p=): the page rolls the seed's dice (practice-dice.js), the advice is
// hidden (view-practice.js shows the grade of the last choice instead), the player marks the dice
// to keep and rolls, or scores a category from the sheet's picker. With an opponent, their turn
// (the simulated player's, from the worker: yacht.api.opponent_query) is recorded with my score.
// Every change goes through change() (actions.js), so the URL, the device's copy and the views
// follow as in any game.

import { change, commitRoll, scoreCategory } from "./actions.js";
import { ascending, MAX_ROLLS, N_DICE } from "./dice.js";
import { $ } from "./dom.js";
import { decisionCount } from "./formats.js";
import { ME, practiceRoll, randomSeed } from "./practice-dice.js";
import { render } from "./render.js";
import { newGameId } from "./saved.js";
import { practising, store } from "./store.js";

const FEEDBACK_KEY = "yacht.practiceFeedback";

/** The grading setting kept on the device ("each" or "end"). */
export function loadFeedbackSetting() {
  try {
    const saved = window.localStorage.getItem(FEEDBACK_KEY);
    if (saved === "each" || saved === "end") store.practiceFeedback = saved;
  } catch {
    // storage blocked: the default stays
  }
}

export function setFeedback(value) {
  store.practiceFeedback = value === "end" ? "end" : "each";
  try {
    window.localStorage.setItem(FEEDBACK_KEY, store.practiceFeedback);
  } catch {
    // storage blocked: the setting lasts as long as the page
  }
  render();
}

/** A new practice game (a new seed) under the rules shown; the game before stays kept. */
export function startPractice({ opponent }) {
  const empty = () => Array(store.rules.categories.en.length).fill(null);
  store.gameId = newGameId();
  store.reviewOpen = false;
  store.backToGame = false;
  change(
    () => {
      store.game = {
        sheet: empty(),
        firstRoll: 1,
        variant: store.state.variant,
        turns: [],
        opponent: opponent ? { sheet: empty(), turns: [] } : null,
        target: null,
        practice: randomSeed(),
        keep: null,
      };
      store.entry = [];
      store.practiceKeep = [];
      store.practiceGrade = null;
    },
    { push: true },
  );
  render();
  $("#verdict-apply").focus();
}

/** Mark or release die `index` to keep (after roll 1 or 2). */
export function togglePracticeKeep(index) {
  const v = store.view;
  if (!practising() || v.phase !== "choice" || v.roll >= MAX_ROLLS || index >= v.dice.length) return;
  const keep = v.dice.map((_, i) => store.practiceKeep[i] === true);
  keep[index] = !keep[index];
  if (keep.every(Boolean)) return; // five kept is no roll: score a category instead
  store.practiceKeep = keep;
  const focused = $("#slots").contains(document.activeElement);
  render();
  if (focused) document.querySelectorAll("#slots [data-testid=die]")[index]?.focus(); // the dice are redrawn
}

/** Roll: a turn's first roll, or the dice not marked (the marked ones kept). */
export function practiceRolls() {
  const v = store.view;
  if (!practising()) return;
  const seed = store.game.practice;
  if (v.phase === "dice") {
    // A turn's first roll, or a reroll whose keep is recorded (a game reopened mid-turn).
    const kept = store.game.keep ?? [];
    const dice = practiceRoll(seed, ME, v.turn, v.roll, kept);
    change(() => {
      store.entry = dice.slice(kept.length);
      commitRoll();
      store.practiceKeep = dice.map((_, i) => i < kept.length);
    });
  } else if (v.phase === "choice" && v.roll < MAX_ROLLS) {
    const kept = v.dice.filter((_, i) => store.practiceKeep[i] === true);
    if (kept.length === N_DICE) return;
    const dice = practiceRoll(seed, ME, v.turn, v.roll + 1, kept);
    change(() => {
      store.game.keep = ascending(kept);
      store.entry = dice.slice(kept.length);
      commitRoll();
      store.practiceKeep = dice.map((_, i) => i < kept.length); // the kept dice stay marked
    });
  }
}

/** Score category c with the dice; the opponent's turn follows when it is known. */
export function practiceScore(c) {
  if (!practising() || store.view.phase !== "choice" || store.view.sheet[c] !== null) return;
  change(() => {
    scoreCategory(c);
    store.practiceKeep = [];
    recordOpponentTurns();
  });
  $("#verdict-apply").focus();
}

/** The worker has given the simulated opponent's turns: record those that are due. */
export function opponentReady() {
  if (practising() && store.game.opponent && dueTurns() > 0) change(recordOpponentTurns);
}

/** The opponent's turns the record lacks: their i-th comes after my i-th. */
function dueTurns() {
  const mine = store.game.turns.filter((turn) => turn.category !== null).length;
  return mine - store.game.opponent.turns.length;
}

function recordOpponentTurns() {
  const known = store.practiceOpponent;
  const rival = store.game.opponent;
  if (!rival || known?.key !== opponentKey()) return;
  while (dueTurns() > 0) {
    const turn = known.turns[rival.turns.length];
    rival.turns.push({ category: turn.category, points: turn.points });
  }
}

/** Which simulated opponent the practice game needs: its rules and seed. */
export const opponentKey = () => `${store.game.variant}|${store.game.practice}`;

/** The number of decisions the grade shown is about (the record's decisions now). */
export const decisionsNow = () => decisionCount(store.game);
