// The one place that turns a change of the store into what the page shows and asks. Every change
// goes through update(what, mutate) (state/store.js): an action's, or an answer's from the worker
// (requests/). update calls show(what, options), which looks `what` up in SHOW: the views to draw,
// the requests to send (each request module sends only what the store still lacks), the URL and
// the device's copy to write, and then where the focus goes (store.focus).
//
// Data flows one way: actions → store → show → views and requests; views call the handlers they
// are given (main.js binds them to actions); the worker's answers come back through update.

import { $ } from "./views/dom.js";
import { deviceStarted, keepingNote, registerServiceWorker, savePracticeFeedback } from "./requests/device.js";
import { keptGames } from "./model/saved.js";
import {
  requestAdvice,
  requestExplanation,
  requestHistogram,
  requestPractice,
  requestPack,
  requestReview,
  retryTables,
  sendDecisionExplanations,
} from "./requests/requests.js";
import { formatGame } from "./model/formats.js";
import { keepOnDevice, writeURL } from "./state/location.js";
import { currentQuery, practising, store } from "./state/store.js";
import { quote, saveLanguage, setLanguage, t } from "./texts/texts.js";
import { markStale, renderAdvice } from "./views/advice.js";
import { renderAppNote } from "./views/app-note.js";
import { focusPicker, focusPickerOpener, renderCard } from "./views/card.js";
import { renderCoach } from "./views/coach.js";
import { renderDecisionWhys } from "./views/coach-decision.js";
import { renderGames, renderResume } from "./views/games.js";
import { renderGoal } from "./views/goal.js";
import { chartedQuery, renderHistogram } from "./views/histogram.js";
import { renderDice, renderGameBar, renderInput, renderLoading, renderStatic } from "./views/input.js";
import { focusNoteOpener, renderNote } from "./views/note.js";
import { renderReview } from "./views/review.js";

/** The input: the roll, the rules, the dice, the card, the goal, the game's bar and its review. */
function drawInput() {
  renderInput();
  renderDice();
  renderCard();
  renderGoal();
  renderGameBar();
  renderReview();
}

/** The kept games and the offer to resume one; what keeping them says, and the last import. */
function drawGames() {
  if (!deviceStarted()) return;
  const { games, skipped, error } = keptGames();
  const note = keepingNote(games, skipped, error);
  renderGames(games, note, store.language, { persisted: store.persisted, message: importMessage() });
  renderResume(store.offer);
}

/** The last import's words in the language shown; the file's own text quoted. */
function importMessage() {
  const imported = store.imported;
  if (!imported) return null;
  const args = imported.args.map((a) => (typeof a === "string" ? quote(a) : a));
  const text = t(imported.key, ...args);
  return { text: imported.refused ? t("importRefused", text) : text, refused: imported.refused };
}

/** Everything (at start, after the input was replaced wholesale: a link, Back, a new game). */
function drawAll() {
  renderStatic();
  drawInput();
  renderLoading();
  renderAdvice();
  renderAppNote();
  renderNote();
}

/** The advice after the input changed: the answer shown still holds when only the entry changed;
 * else the options are stale until the new answer (what to enter, or a practice game's turn with
 * its advice hidden, is drawn at once) and the advice is asked for. */
function followInput() {
  requestPack();
  if (store.shown?.result && store.shown.query === currentQuery()) renderAdvice();
  else {
    markStale();
    if (store.game && (store.stage.phase === "dice" || practising())) renderAdvice();
    requestAdvice();
  }
  requestReview();
  requestPractice();
}

/** What each change shows and asks (`o`: the options given to update). */
const SHOW = {
  /** Nothing to draw (a one-shot flag was consumed). */
  none: () => {},
  /** The position or the game changed (the player entered or chose something). */
  input: (o) => {
    writeURL(o.push ?? false);
    drawGames();
    renderNote();
    drawInput();
    followInput();
  },
  /** A new game (alone, with a rival, a practice): the input's, then everything drawn again. */
  restart: (o) => {
    SHOW.input(o);
    drawAll();
  },
  /** The URL and history.state read into the store (Back / Forward; a kept game opened: its new
   * history entry pushed, `o.pushed`; a broken link's legal game: the entry's URL replaced). */
  location: (o) => {
    if (o.pushed) history.pushState(o.pushed.state, "", o.pushed.url);
    if (o.replaced) writeURL();
    drawAll();
    drawGames();
    markStale();
    requestAdvice();
    requestReview();
    requestPractice();
    requestPack();
  },
  /** The entry's URL written as it stands (before a new entry is pushed). */
  url: () => writeURL(),
  /** A reviewed decision's position opened in a new history entry. */
  decision: () => {
    writeURL(true);
    drawAll();
    markStale();
    requestAdvice();
    window.scrollTo(0, 0);
  },
  language: () => {
    setLanguage(store.language);
    saveLanguage(store.language);
    if (store.rules) drawAll();
    else renderStatic();
    drawGames(); // the kept games' words and dates too
  },
  /** The rules have loaded (rules.json): the page can be drawn and used. */
  rules: () => {
    for (const part of document.querySelectorAll("[data-needs-rules]")) part.inert = false;
    drawAll();
    drawGames();
    requestAdvice();
  },
  aim: () => {
    renderGoal();
    renderAdvice();
  },
  practiceKeep: () => drawAll(),
  feedback: () => {
    savePracticeFeedback(store.practiceFeedback);
    drawAll();
    requestPractice();
  },
  reviewOpened: () => {
    writeURL();
    renderReview();
    requestReview();
    $("#review").scrollIntoView({ block: "start" });
  },
  reviewClosed: () => {
    writeURL();
    renderReview();
  },
  picker: () => renderCard(),
  why: () => {
    renderCoach();
    requestExplanation();
  },
  note: () => renderNote(),
  appNote: () => renderAppNote(),
  games: () => drawGames(),
  // The worker -------------------------------------------------------------------------------
  starting: () => {
    document.documentElement.dataset.state = "loading";
    renderLoading();
    if (store.rules) renderAdvice(); // a Retry: the failure's message goes
  },
  loading: () => renderLoading(),
  ready: () => {
    document.documentElement.dataset.state = "ready";
    renderLoading();
    requestAdvice();
    requestReview();
    requestPractice();
    sendDecisionExplanations();
    registerServiceWorker();
    requestPack();
  },
  failed: () => {
    document.documentElement.dataset.state = "error";
    renderLoading();
    renderAdvice();
  },
  /** The advice's answer; `o.link`: a link's, whose canonical query the store now holds. */
  advice: (o) => {
    if (o.link) {
      writeURL(false, { opened: true });
      drawGames();
      drawInput();
      requestReview();
    }
    renderAdvice();
    const charted = chartedQuery();
    if (charted) requestHistogram(charted);
    requestExplanation();
  },
  /** The advice's failure; `o.dropped`: a link's game that is not legal, now a position. */
  adviceError: (o) => {
    if (o.dropped) drawInput();
    renderAdvice();
  },
  histogram: () => renderHistogram(),
  /** How an offline pack stands (the worker's news); what the player asked of one. */
  pack: () => {
    renderGoal();
    requestPack();
  },
  packWish: () => requestPack(),
  /** Files answers went without have arrived: what was answered without them is asked again
   * (the estimate stays shown until the new answer). */
  recovered: () => {
    requestAdvice(true);
    requestExplanation();
  },
  /** The browser went online or offline: the estimate's words; online, the files fetched again. */
  online: () => {
    renderAdvice();
    if (store.online) retryTables();
  },
  review: () => {
    renderReview();
    if (practising() && store.reviewShown?.result && store.reviewShown.query === formatGame(store.game)) {
      keepOnDevice(); // a practice record keeps the review's mean loss
      drawGames();
    }
  },
  explanation: () => renderCoach(),
  decisionWhy: () => {
    renderDecisionWhys();
    sendDecisionExplanations();
  },
  grade: () => renderAdvice(),
};

/** Where store.focus sends the focus, once the change is drawn. */
const FOCUS = {
  // The verdict's action takes it once it can act (views/verdict.js): not taken from it here.
  "advice-heading": () => store.focusVerdict && $("#advice-heading").focus(),
  "advice-heading-still": () => $("#advice-heading").focus({ preventScroll: true }),
  keypad: (f) => $("#keypad button")?.focus({ preventScroll: !f.scroll }),
  verdict: () => $("#verdict-apply").focus(),
  "review-heading": () => $("#review-heading").focus({ preventScroll: true }),
  "review-open": () => $("#review-open").focus(),
  "turn-heading": () => {
    $("#turn-heading")?.scrollIntoView?.({ block: "start" });
    $("#advice-heading").focus({ preventScroll: true });
  },
  picker: () => focusPicker(),
  "picker-opener": (f) => focusPickerOpener(f.picker),
  "note-opener": (f) => focusNoteOpener(f.opener),
  die: (f) => document.querySelectorAll("#slots [data-testid=die]")[f.index]?.focus(),
};

let depth = 0;

/** Show the change `what` (a key of SHOW) with its options; then the focus it asked for (once the
 * outermost change is drawn: a view may change the store while it draws, through a handler). */
export function show(what, options = {}) {
  depth++;
  try {
    SHOW[what](options);
  } finally {
    depth--;
  }
  if (depth > 0 || store.focus === null) return;
  const focus = store.focus;
  store.focus = null; // the one place that spends it
  FOCUS[focus.target](focus);
}
