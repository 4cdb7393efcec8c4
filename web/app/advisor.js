import { decisionCount, formatGame, isGameQuery, keepFits, parseGame, readQuery } from "./formats.js";
import { adoptGameId, refreshGames } from "./games.js";
import { Advisor, LatestRequest } from "./messenger.js";
import { registerServiceWorker } from "./offline.js";
import { currentQuery, keepOnDevice, practising, restoreEntry, store, sync, writeURL } from "./store.js";
import { renderAdvice } from "./view-advice.js";
import { renderInput, renderLoading } from "./view-input.js";
import { renderReview } from "./view-review.js";
import { renderHistogram } from "./view-histogram.js";
import { explainQuery, explanationWanted, renderCoach } from "./view-coach.js";
import { decisionKey, renderDecisionWhys } from "./view-coach-decision.js";

export function startAdvisor() {
  store.steps = {};
  store.loadError = null;
  store.ready = false;
  setPageState("loading");
  store.advisor = new Advisor((message) => {
    store.steps[message.step] = { state: message.state, variant: message.variant };
    performance.mark(`yacht:${message.step}:${message.state}`); // for the benchmark and devtools
    renderLoading();
  });
  // The table to load first: the link's variant, or the one entered (the worker knows the default).
  const variant = store.state.variant ?? new URLSearchParams(location.search).get("v");
  const current = store.advisor;
  store.advisor.call("start", { variant }).then(
    (started) => {
      if (current !== store.advisor) return;
      // How Python started ("snapshot", "fresh", "fresh: <why not>"): for the tests and devtools.
      performance.mark("yacht:runtime-start", { detail: started.runtimeStart });
      store.ready = true;
      setPageState("ready");
      renderLoading();
      requestAdvice();
      requestReview();
      requestPractice();
      sendDecisionExplanations();
      registerServiceWorker();
    },
    (error) => {
      if (current !== store.advisor || error.kind === "cancelled") return;
      failLoading(error);
    },
  );
}

export function failLoading(error) {
  store.loadError = error;
  store.ready = false;
  setPageState("error");
  renderLoading();
  renderAdvice();
}

export function setPageState(value) {
  document.documentElement.dataset.state = value;
}

// Advice ---------------------------------------------------------------------------------------

let firstAdvice = true;

/** The advice of the position or game shown: only the latest request's answer is shown. */
const adviceRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (request) => {
    request.advisor = store.advisor;
    return store.advisor.call(request.action, { query: request.query });
  },
  done: (request, result) => {
    if (request.generation === store.generation) showAdvice(request, result);
  },
  failed: (request, error) => {
    if (error.kind === "load" && request.advisor === store.advisor) failLoading(error);
    else if (request.generation === store.generation && error.kind !== "cancelled") showError(request, error);
  },
});

export function requestAdvice() {
  const query = store.link ?? currentQuery();
  const action = isGameQuery(query) ? "game" : "advise";
  adviceRequests.want({ query, generation: store.generation, link: store.link !== null, action });
}

export function showAdvice(request, result) {
  if (request.link) {
    // The link was valid: show exactly what Python read, under its canonical query.
    if (request.action === "game") {
      const parsed = parseGame(result.query);
      if (!parsed) return showError(request, { kind: "internal", message: `cannot follow ${result.query}` });
      const keep = store.game?.keep;
      const entered = store.game ? store.entry : [];
      store.game = parsed;
      if (keep && keepFits(store.game, keep)) store.game.keep = keep;
      restoreEntry(entered);
    } else {
      store.game = null;
      Object.assign(store.state, readQuery(result.query));
    }
    sync();
    store.link = null;
    if (result.query !== request.query) adoptGameId(result.query); // another spelling of a game kept
    writeURL(false, { opened: true });
    refreshGames();
    renderInput();
    requestReview();
  }
  store.shown = { query: result.query, action: request.action, result };
  renderAdvice();
  if (request.action === "advise" && (result.win !== undefined || result.reach !== undefined)) {
    requestHistogram(result.query);
  }
  requestExplanation();
  if (firstAdvice) {
    firstAdvice = false;
    performance.mark("yacht:first-advice");
  }
}

export function showError(request, error) {
  if (request.link && request.action === "game" && store.game) {
    // Not a legal game: keep what can be read of its start (the sheet, the rules) as a position.
    store.game = null;
    store.entry = [];
    Object.assign(store.state, readQuery(request.query));
    sync();
    renderInput();
  }
  store.shown = { query: request.query, action: request.action, error, link: request.link };
  renderAdvice();
}

/** Requests of `action` ({query}) whose answer goes to store[key] as {query, result} or
 * {query, error}, drawn by `draw`: the histogram and the review. */
function panelRequests(action, key, draw) {
  return new LatestRequest({
    canSend: () => store.ready,
    send: (query) => store.advisor.call(action, { query }),
    done: (query, result) => {
      store[key] = { query, result };
      draw();
    },
    failed: (query, error) => {
      if (error.kind === "load") failLoading(error);
      store[key] = error.kind === "cancelled" ? null : { query, error };
      draw();
    },
  });
}

/** The final-score histogram of a position with a goal, once its advice is shown. */
const histogramRequests = panelRequests("distribution", "histogram", renderHistogram);

function requestHistogram(query) {
  if (store.histogram?.query !== query) histogramRequests.want(query);
}

/** The review of the game shown, while the review panel is open. A practice game's record on
 * the device keeps the review's mean loss (the games list's progress). */
const reviewRequests = panelRequests("review", "reviewShown", () => {
  renderReview();
  if (practising() && store.reviewShown?.result && store.reviewShown.query === formatGame(store.game)) {
    keepOnDevice();
    refreshGames();
  }
});

export function requestReview() {
  if (!store.reviewOpen || !store.game || decisionCount(store.game) === 0) return;
  const query = formatGame(store.game);
  if (store.reviewShown?.query === query) return;
  reviewRequests.want(query);
}

/** The coach's explanation of the position shown (yacht.api.explain_query), while the panel under
 * the verdict or an option's Why? is open; asked again after a failure. A file that did not load
 * (the coach's .bonus or .points) is said in the panel, with Retry: the advice stays. */
const explainRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (query) => store.advisor.call("explain", { query }),
  done: (query, result) => {
    if (store.explanation?.query === query) store.explanation = { query, result };
    renderCoach();
  },
  failed: (query, error) => {
    if (store.explanation?.query === query) store.explanation = error.kind === "cancelled" ? null : { query, error };
    renderCoach();
  },
});

export function requestExplanation() {
  if (!explanationWanted()) return;
  const query = explainQuery();
  const known = store.explanation;
  if (known?.query === query && !known.error) return;
  store.explanation = { query, loading: true };
  renderCoach();
  explainRequests.want(query);
}

/** The coach's explanation of decision `index` of the game record `record`
 * (yacht.api.explain_decision_query), asked for when its Why? is opened (in practice, in the
 * review); again after a failure, never twice while one is there or on its way. Several may be
 * on their way at once (the worker answers in turn): each has its place in store.decisionWhy. */
export function requestDecisionExplanation(record, index) {
  const key = decisionKey(record, index);
  const known = store.decisionWhy.get(key);
  if (known && !known.error) return;
  store.decisionWhy.set(key, { record, index, loading: true, sent: false });
  renderDecisionWhys();
  sendDecisionExplanations();
}

/** Send the explanations asked for and not sent yet (once the advisor is ready). */
function sendDecisionExplanations() {
  if (!store.ready) return;
  for (const [key, wanted] of store.decisionWhy) {
    if (!wanted.loading || wanted.sent) continue;
    wanted.sent = true;
    const { record, index } = wanted;
    const settle = (outcome) => {
      if (store.decisionWhy.get(key) !== wanted) return;
      if (outcome) store.decisionWhy.set(key, { record, index, ...outcome });
      else store.decisionWhy.delete(key); // cancelled (the advisor restarted): asked again when opened
      renderDecisionWhys();
    };
    store.advisor.call("explainDecision", { query: record, index }).then(
      (result) => settle({ result }),
      (error) => settle(error.kind === "cancelled" ? null : { error }), // a file: said, with Retry
    );
  }
}

// Practice ------------------------------------------------------------------------------------

let practiceHandlers = null;

/** What was asked for last (not asked again while its answer is on the way). */
const asked = { grade: null, opponent: null };

/** The handlers the practice's answers call (main.js): opponentReady(). */
export function bindAdvisor(given) {
  practiceHandlers = given;
}

/** The grade of a practice game's last choice ({query, count, result} or {query, count, error}
 * in store.practiceGrade), drawn by the advice's view. */
const gradeRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (request) => store.advisor.call("grade", { query: request.query }),
  done: (request, result) => {
    store.practiceGrade = { ...request, result };
    renderAdvice();
  },
  failed: (request, error) => {
    if (error.kind === "load") return failLoading(error);
    if (error.kind === "cancelled") asked.grade = null;
    else store.practiceGrade = { ...request, error };
    renderAdvice();
  },
});

/** The simulated opponent's twelve turns ({key, turns} in store.practiceOpponent). */
const opponentRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (request) => store.advisor.call("opponent", { query: request.query }),
  done: (request, result) => {
    store.practiceOpponent = { key: request.key, turns: result.turns };
    practiceHandlers?.opponentReady();
  },
  failed: (request, error) => {
    asked.opponent = null; // asked again on the next change
    if (error.kind === "load") failLoading(error);
  },
});

/** A practice game: the grade of the last choice (when it is shown after each choice) and the
 * simulated opponent's turns (once per seed and rules), whenever they are not known yet. */
export function requestPractice() {
  if (!practising()) return;
  const game = store.game;
  const count = decisionCount(game);
  const query = formatGame({ ...game, keep: null });
  const graded = store.practiceGrade;
  const wanted = store.practiceFeedback === "each" && count > 0;
  if (wanted && graded?.query !== query && asked.grade !== query) {
    asked.grade = query;
    gradeRequests.want({ query, count });
  }
  const key = `${game.variant}|${game.practice}`;
  if (game.opponent && store.practiceOpponent?.key !== key && asked.opponent !== key) {
    asked.opponent = key;
    const start = { ...game, turns: [], keep: null, opponent: { sheet: game.opponent.sheet, turns: [] } };
    opponentRequests.want({ query: formatGame(start), key });
  }
}
