// What the controls do: each action changes the store through update() (state/store.js) and
// nothing else; show.js then draws the change, writes the URL and asks the worker. Every change of
// the position or the game goes through change(). Where the focus goes next is part of the
// change (store.focus).

import { ascending, N_DICE, randomFace } from "../model/dice.js";
import { decisionCount, readQuery } from "../model/formats.js";
import { categoryName, possible } from "../model/rules.js";
import { newGameId } from "../model/saved.js";
import { adoptGameId, historyState, readLocation } from "../state/location.js";
import {
  canUndo,
  correctableTheirTurn,
  currentQuery,
  gameStage,
  leaveGame,
  restore,
  snapshot,
  startGame,
  store,
  update,
} from "../state/store.js";
import { t } from "../texts/texts.js";

/** Apply a change (of the position, or of the game); the URL, the page and the advice follow.
 * Any change but undo and redo forgets the steps undone. `push`: a new history entry. */
export function change(mutate, { redo = [], push = false, what = "input" } = {}) {
  update(
    what,
    (s) => {
      s.note = null;
      mutate(s.state);
      s.offer = null;
      s.redoStack = redo;
      s.link = null;
      s.generation++;
    },
    { push },
  );
}

export function addDie(face) {
  if (store.game) {
    if (store.stage.phase !== "dice") return;
    change(() => {
      store.entry.push(face);
      if (store.stage.dice.length + 1 === N_DICE) commitRoll();
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
 * advice's heading, then goes to the verdict's action once the advice is shown (views/verdict.js). */
export function commitRoll() {
  store.focusVerdict = true;
  store.focus = { target: "advice-heading" };
  const v = gameStage();
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
  const missing = N_DICE - (store.game ? store.stage.dice.length : store.state.dice.length);
  if (missing <= 0 || (store.game && store.stage.phase !== "dice")) return;
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
      if (!store.focusVerdict) store.focus = { target: "keypad", scroll: true };
    });
  }
}

export function removeDie(index) {
  if (!store.game) return change((s) => s.dice.splice(index, 1));
  if (store.stage.locked[index]) return;
  if (store.stage.phase === "dice") {
    return change(() => store.entry.splice(index - store.stage.locked.filter(Boolean).length, 1));
  }
  // Correcting dice already recorded: the roll goes back to being entered, without that die.
  const rest = store.stage.dice.filter((_, i) => !store.stage.locked[i] && i !== index);
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
  if (store.stage.phase === "dice") return change(() => (store.entry = []));
  if (store.stage.phase === "choice" && store.stage.locked.some((x) => !x)) change(() => reopenRoll([]));
}

/** The roll selector (a position entered; a game's roll is its own). */
export function setRoll(roll) {
  if (store.game) return;
  change((s) => (s.roll = roll));
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
    // The focus waits on the keypad for the next dice (the handler brings them into view: main.js).
    store.focus = { target: "keypad" };
  });
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
  change((s) => {
    const cleared = [];
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
    if (cleared.length) store.note = note(t("variantCleared", cleared.map(categoryName).join(", ")));
  });
}

/** A note that answers a tap (views/note.js); `link`: a URL to copy by hand, with its label. */
export const note = (text, link = null, label = "") => ({ text, link, label });

/** The note goes (its Dismiss, its time up); `refocus`: the focus back where it was. */
export function dismissNote(refocus = false) {
  update("note", (s) => {
    s.note = null;
    if (refocus) s.focus = { target: "note-opener" };
  });
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
  if (store.game && value !== null && c === correctableTheirTurn()) {
    return change(() => (store.game.opponent.turns.at(-1).points = value)); // a mistyped score corrected
  }
  if (store.game) return recordOpponentTurn(c, value);
  if (!store.state.opponent) return;
  change((s) => {
    s.opponent[c] = value;
  });
}

/** Playing along with an opponent: their turn, due after mine, scored `points` in category c. */
export function recordOpponentTurn(c, points) {
  if (store.stage?.phase !== "opponent" || points === null || store.stage.opponent[c] !== null) return;
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
  change(
    (s) => {
      store.gameId = newGameId(); // the game before stays kept on the device
      store.reviewOpen = false;
      store.backToGame = false;
      if (store.game) leaveGame();
      s.sheet = s.sheet.map(() => null);
      const withRival = rival ?? s.opponent !== null;
      s.opponent = withRival ? s.sheet.map(() => null) : null;
      if (rival !== undefined) s.target = null;
      s.dice = [];
      s.roll = 0;
      store.theyStart = theyStart;
    },
    { push: wasGame, what: "restart" },
  );
}

/** Apply the fix a bad link's message offers (views/error.js): what could be read of the link
 * stays, the part at fault is cleared, and the page goes on from there. */
export function fixLink(fix) {
  if (fix.legal) return keepLegalGame(fix.legal);
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
}

/** A broken game link's legal part (`query`, Python's) goes on as the game, in the link's place:
 * checked again by Python like a link. */
function keepLegalGame(query) {
  update(
    "location",
    (s) => {
      readLocation(query, {});
      adoptGameId(currentQuery());
      s.generation++;
      s.note = null;
      s.offer = null;
      s.focus = { target: "turn-heading" };
    },
    { replaced: true },
  );
}

// The review panel --------------------------------------------------------------------------

export function openReview() {
  if (!store.game || decisionCount(store.game) === 0) return;
  update("reviewOpened", (s) => {
    s.reviewOpen = true;
    s.focus = { target: "review-heading" };
  });
}

export function closeReview() {
  update("reviewClosed", (s) => {
    s.reviewOpen = false;
    s.focus = { target: "review-open" };
  });
}

/** Open a reviewed decision's position with its advice, in a new history entry (Back returns). */
export function openDecision(decision) {
  update("url"); // this entry keeps the game with the review open
  update("decision", (s) => {
    s.backToGame = true;
    s.reviewOpen = false;
    s.game = null;
    s.entry = [];
    s.redoStack = [];
    Object.assign(s.state, readQuery(decision.query));
    s.link = null;
    s.generation++;
    s.focus = { target: "advice-heading-still" };
  });
}

/** The goal's options ranked by "win" (the chance) or "average" (the expected score). */
export const setAim = (aim) => update("aim", (s) => (s.aim = aim));

export const setLanguage = (language) => update("language", (s) => (s.language = language));

/** Back / Forward: what the URL and history.state say (checked by Python like a link). */
export function showLocation() {
  update("location", (s) => {
    readLocation();
    adoptGameId(currentQuery(), history.state?.id);
    s.generation++;
    s.note = null;
    s.offer = null;
  });
}

/** Open a kept game here (its keep and entry too), in a new history entry; `focus`: where the
 * focus goes. Opening another game keeps this one: it is saved already. */
export function openKept(record, focus = "turn-heading") {
  const pushed = { url: `${location.pathname}?${record.query}`, state: null };
  update(
    "location",
    (s) => {
      s.gameId = record.id;
      const saved = { ...historyState(), keep: record.keep, entry: record.entry, redo: [], back: false, review: false };
      pushed.state = saved;
      readLocation(record.query, saved);
      adoptGameId(currentQuery(), saved.id);
      s.generation++;
      s.note = null;
      s.offer = null;
      s.focus = { target: focus };
    },
    { pushed },
  );
}

/** The offer to resume the game in progress, declined: the focus stays in the turn. */
export function dismissOffer() {
  update("games", (s) => {
    s.offer = null;
    s.focus = { target: "keypad" };
  });
}
