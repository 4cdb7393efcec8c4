// What a practice game's controls do. A practice game is a game record with a seed (store.game
// .practice; yacht.play.game's p=): the page rolls the seed's dice (practice-dice.js), the advice is
// hidden (views/practice.js shows the grade of the last choice instead), the player marks the dice
// to keep and rolls, or scores a category from the sheet's picker. With an opponent, their turn
// (the simulated player's, from the worker: yacht.api.opponent_query) is recorded with my score.
// Every change goes through change() (actions.js), so the URL, the device's copy and the views
// follow as in any game; the opponent's turns answered by the worker come in through
// opponentAnswered.

import { change, commitRoll, scoreCategory } from "./actions.js";
import { ascending, MAX_ROLLS, N_DICE } from "../model/dice.js";
import { decisionCount } from "../model/formats.js";
import { ME, practiceRoll, randomSeed } from "../model/practice-dice.js";
import { newGameId } from "../model/saved.js";
import { practising, store, update } from "../state/store.js";

/** When the grading shows: after "each" choice or at the "end" (kept on the device: show.js). */
export function setFeedback(value) {
  update("feedback", (s) => (s.practiceFeedback = value === "end" ? "end" : "each"));
}

/** A new practice game (a new seed) under the rules shown; the game before stays kept. */
export function startPractice({ opponent }) {
  const empty = () => Array(store.rules.categories.en.length).fill(null);
  change(
    () => {
      store.gameId = newGameId();
      store.reviewOpen = false;
      store.backToGame = false;
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
      store.focus = { target: "verdict" };
    },
    { push: true, what: "restart" },
  );
}

/** Mark or release die `index` to keep (after roll 1 or 2); `refocus`: the die had the focus (the
 * dice are drawn again: it gets it back). */
export function togglePracticeKeep(index, refocus = false) {
  const v = store.stage;
  if (!practising() || v.phase !== "choice" || v.roll >= MAX_ROLLS || index >= v.dice.length) return;
  const keep = v.dice.map((_, i) => store.practiceKeep[i] === true);
  keep[index] = !keep[index]; // all five kept is a choice too: stop and score (views/practice.js)
  update("practiceKeep", (s) => {
    s.practiceKeep = keep;
    if (refocus) s.focus = { target: "die", index };
  });
}

/** Roll: a turn's first roll, or the dice not marked (the marked ones kept). */
export function practiceRolls() {
  const v = store.stage;
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
  if (!practising() || store.stage.phase !== "choice" || store.stage.sheet[c] !== null) return;
  change(() => {
    scoreCategory(c);
    store.practiceKeep = [];
    recordOpponentTurns();
    store.focus = { target: "verdict" };
  });
}

/** The worker has given the simulated opponent's turns ({key, turns}): kept, and those that are
 * due recorded. */
export function opponentAnswered(known) {
  const due = practising() && store.game.opponent && dueTurns() > 0;
  if (!due) return update("none", (s) => (s.practiceOpponent = known));
  change(() => {
    store.practiceOpponent = known;
    recordOpponentTurns();
  });
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
