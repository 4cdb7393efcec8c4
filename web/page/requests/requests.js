// What the page asks the worker (worker.js: Python, NumPy, our package yacht), and where the
// answers go: into the store, through update() (state/store.js), and nothing else; show.js draws
// them. Each request function compares what the store shows with what it needs and asks only for
// what is missing; only the latest request of each kind is answered (LatestRequest).

import { adviceAnswered, adviceFailed, packNews, tablesRecovered } from "../actions/answers.js";
import { opponentAnswered } from "../actions/practice.js";
import { decisionCount, formatGame, isGameQuery } from "../model/formats.js";
import { explainQuery, explanationWanted } from "../state/coach.js";
import { currentQuery, practising, store, update } from "../state/store.js";
import { LatestRequest, WorkerClient } from "./worker-client.js";

/** The worker now (a new one after Retry). */
let worker = null;

/** Start the worker: its loading steps go into store.steps, then store.ready. The table to load
 * first: the link's variant, or the one entered (the worker knows the default). */
export function startWorker() {
  update("starting", (s) => {
    s.steps = {};
    s.loadError = null;
    s.ready = false;
  });
  const current = new WorkerClient(
    (message) => {
      performance.mark(`yacht:${message.step}:${message.state}`); // for the benchmark and devtools
      update("loading", (s) => (s.steps[message.step] = { state: message.state, variant: message.variant }));
    },
    () => current === worker && tablesRecovered(),
    (news) => current === worker && packNews(news),
  );
  worker = current;
  const variant = store.state.variant ?? new URLSearchParams(location.search).get("v");
  current.call("start", { variant }).then(
    (started) => {
      if (current !== worker) return;
      // How Python started ("snapshot", "fresh", "fresh: <why not>"): for the tests and devtools.
      performance.mark("yacht:runtime-start", { detail: started.runtimeStart });
      update("ready", (s) => (s.ready = true));
    },
    (error) => {
      if (current !== worker || error.kind === "cancelled") return;
      failLoading(error);
    },
  );
}

/** Retry after a failure to load: a new worker, and the advice asked for again. */
export function restartWorker() {
  worker?.terminate();
  startWorker();
  requestAdvice();
}

/** The browser is online again: the worker fetches the files answers went without now. */
export function retryTables() {
  if (store.ready) worker?.call("retryTables").catch(() => {});
}

// The offline packs ---------------------------------------------------------------------------

/** Variants whose pack's status was asked, and whose download was started by itself. */
const packAsked = new Set();
const packStartedAlone = new Set();

/** Whether the browser says the connection is metered or saving data (no download by itself). */
function sparingData() {
  const connection = navigator.connection;
  return Boolean(connection?.saveData || connection?.metered || /(^|-)2g$/.test(connection?.effectiveType ?? ""));
}

/** With a goal shown: how its variant's pack stands (asked once); in a game with a rival or a
 * target, its download started by itself once, unless the connection is metered or saving data;
 * and what the player asked (store.packWish). */
export function requestPack() {
  if (!store.ready || !store.rules) return;
  const wish = store.packWish;
  if (wish) {
    update("none", (s) => (s.packWish = null));
    if (wish.wish === "cancel") worker.call("packCancel", { variant: wish.variant }).catch(() => {});
    else startPack(wish.variant);
  }
  const s = store.state;
  if (!s.opponent && s.target === null) return;
  const variant = s.variant ?? store.rules.default_variant;
  if (!packAsked.has(variant)) {
    packAsked.add(variant);
    worker.call("packStatus", { variant }).then(packNews, () => packAsked.delete(variant));
    return;
  }
  const pack = store.packs[variant];
  const idle = pack && (pack.state === "none" || pack.state === "partial");
  if (store.game && idle && !packStartedAlone.has(variant) && !sparingData()) {
    packStartedAlone.add(variant);
    startPack(variant);
  }
}

function startPack(variant) {
  worker.call("packDownload", { variant }).then(packNews, () => {});
}

/** A new version takes over and the page reloads (offline.js: reloadForUpdate): the worker and
 * the one taking a snapshot end first, with nothing said. Resolves once they have ended. */
export function endWorker() {
  if (!worker) return Promise.resolve();
  worker.terminate();
  return worker.ended();
}

/** The page itself did not load (rules.json): the worker stops, the failure is said. */
export function stopWorker(error) {
  worker?.terminate();
  update("failed", (s) => (s.loadError = error));
}

function failLoading(error) {
  update("failed", (s) => {
    s.loadError = error;
    s.ready = false;
  });
}

// Advice ---------------------------------------------------------------------------------------

let firstAdvice = true;

/** The advice of the position or game shown: only the latest request's answer is shown. It is
 * sent as soon as there is a worker, before it has loaded: the worker answers it once its first
 * table is in (worker.js), after its answer to start, so that the first advice does not wait for
 * the page to hear that the worker is ready and ask. */
const adviceRequests = new LatestRequest({
  canSend: () => worker !== null,
  send: (request) => {
    request.worker = worker;
    return worker.call(request.action, { query: request.query });
  },
  done: (request, result) => {
    if (request.generation !== store.generation) return;
    adviceAnswered(request, result);
    if (firstAdvice) {
      firstAdvice = false;
      performance.mark("yacht:first-advice");
    }
  },
  failed: (request, error) => {
    if (error.kind === "load" && request.worker === worker) failLoading(error);
    else if (request.generation === store.generation && error.kind !== "cancelled") adviceFailed(request, error);
  },
});

/** The advice of what is shown, once the rules are in: a position is read with them (their arrival
 * asks again; a warm start can be ready before rules.json arrives). The same request already sent
 * to this worker is not sent again, unless `again` (files it went without have arrived since); one
 * still waiting (no worker yet when it was wanted) is sent now if it can be. */
export function requestAdvice(again = false) {
  if (!store.rules) return;
  const query = store.link ?? currentQuery();
  const action = isGameQuery(query) ? "game" : "advise";
  const request = { query, generation: store.generation, link: store.link !== null, action };
  const same = (other) =>
    other && ["query", "generation", "link", "action"].every((key) => other[key] === request[key]);
  const { running } = adviceRequests;
  if (!again && same(running) && running.worker === worker) return;
  adviceRequests.want(request);
}

/** Requests of `action` ({query}) whose answer goes to store[key] as {query, result} or
 * {query, error}, shown as `what`: the histogram and the review. `stepped`: the worker answers
 * them in steps, and one still running is cancelled when no longer wanted (the page's mark
 * yacht:<action>:cancel, for the tests and devtools). One cancelled, or ended by a Retry's new
 * worker, leaves the store as it was. */
function panelRequests(action, key, what, stepped = false) {
  const cancel = (query) => {
    performance.mark(`yacht:${action}:cancel`, { detail: query });
    worker.call("cancel", { action }).catch(() => {});
  };
  return new LatestRequest({
    cancel: stepped ? cancel : null,
    canSend: () => store.ready,
    send: (query) => worker.call(action, { query }),
    done: (query, result) => update(what, (s) => (s[key] = { query, result })),
    failed: (query, error) => {
      if (error.kind === "load") failLoading(error);
      if (error.kind !== "cancelled") update(what, (s) => (s[key] = { query, error }));
    },
  });
}

/** The final-score histogram of a position with a goal, once its advice is shown: computed in
 * steps, between which the worker answers the advice of a new position (which never waits for
 * a chart); the chart of a position no longer shown is cancelled, and its answer dropped. */
const histogramRequests = panelRequests("distribution", "histogram", "histogram", true);

export function requestHistogram(query) {
  if (store.histogram?.query === query)
    histogramRequests.drop(); // drawn already: no other is wanted
  else histogramRequests.want(query);
}

/** The review of the game shown, while the review panel is open. */
const reviewRequests = panelRequests("review", "reviewShown", "review");

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
  send: (query) => worker.call("explain", { query }),
  done: (query, result) =>
    update("explanation", (s) => {
      if (s.explanation?.query === query) s.explanation = { query, result };
    }),
  failed: (query, error) =>
    update("explanation", (s) => {
      if (s.explanation?.query === query) s.explanation = error.kind === "cancelled" ? null : { query, error };
    }),
});

export function requestExplanation() {
  if (!explanationWanted()) return;
  const query = explainQuery();
  const known = store.explanation;
  if (known?.query === query && !known.error) return;
  update("explanation", (s) => (s.explanation = { query, loading: true }));
  explainRequests.want(query);
}

/** Send the decisions' explanations wanted and not sent yet (store.decisionWhy; once the worker
 * is ready): yacht.api.explain_decision_query. Several may be on their way at once (the worker
 * answers in turn): each has its place in store.decisionWhy. */
export function sendDecisionExplanations() {
  if (!store.ready) return;
  for (const [key, wanted] of store.decisionWhy) {
    if (!wanted.loading || wanted.sent) continue;
    wanted.sent = true; // the request's own mark: not a change of what is shown
    const { record, index } = wanted;
    const settle = (outcome) =>
      update("decisionWhy", (s) => {
        if (s.decisionWhy.get(key) !== wanted) return;
        if (outcome) s.decisionWhy.set(key, { record, index, ...outcome });
        else s.decisionWhy.delete(key); // cancelled (the worker restarted): asked again when opened
      });
    worker.call("explainDecision", { query: record, index }).then(
      (result) => settle({ result }),
      (error) => settle(error.kind === "cancelled" ? null : { error }), // a file: said, with Retry
    );
  }
}

// Practice ------------------------------------------------------------------------------------

/** What was asked for last (not asked again while its answer is on the way). */
const asked = { grade: null, opponent: null };

/** The grade of a practice game's last choice ({query, count, result} or {query, count, error}
 * in store.practiceGrade), drawn by the advice's view. */
const gradeRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (request) => worker.call("grade", { query: request.query }),
  done: (request, result) => update("grade", (s) => (s.practiceGrade = { ...request, result })),
  failed: (request, error) => {
    if (error.kind === "load") return failLoading(error);
    if (error.kind === "cancelled") asked.grade = null;
    update("grade", (s) => {
      if (error.kind !== "cancelled") s.practiceGrade = { ...request, error };
    });
  },
});

/** The simulated opponent's twelve turns ({key, turns} in store.practiceOpponent). */
const opponentRequests = new LatestRequest({
  canSend: () => store.ready,
  send: (request) => worker.call("opponent", { query: request.query }),
  done: (request, result) => opponentAnswered({ key: request.key, turns: result.turns }),
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
