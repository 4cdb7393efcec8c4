// The final-score histogram of a position with a goal: yacht.api.distribution_query's
// {"from", "p": [P(from), P(from + 1), …], "bonus", "expected", "exact", "games"?,
// "standard_error"?, "play", "goal_chart"?} under the advised play ("goal": playing for the goal,
// where the core draws it; "average": for the best average, and with a goal "goal_chart", why not
// the goal's), drawn as an SVG bar per final score, with the mean, the chance of the upper bonus,
// how it was computed and, with t=, the score to reach marked. Its heading says whose play it is;
// where that is not the play the options are ranked by, a line under it says why. It states no
// chance of the goal: the verdict's is the one on screen.
// One element data-testid="histogram" with data-query, data-expected, data-bonus, data-exact,
// data-play, data-goal-chart (the core's reason).

import { $, el, svgEl } from "./dom.js";
import { readQuery } from "../model/formats.js";
import { practising, store } from "../state/store.js";
import { formatExpected, t } from "../texts/texts.js";
import { formatChance } from "../texts/texts-goal.js";
import { tickStep } from "./chart.js";

/** What is drawn: the query and the language (the advice is rendered on every change; the chart
 * only when one of them changes). */
let drawn = null;

/** The position whose chart goes with the answer shown, or null: a position with a rival or a
 * target; in a game (not a practice), its position at the start of my turn, before any dice (the
 * chart is computed while the dice are rolled, and the advice of each roll never waits on it). */
export function chartedQuery() {
  const result = store.shown?.result;
  if (!result) return null;
  if (store.shown.action === "advise")
    return result.win !== undefined || result.reach !== undefined ? result.query : null;
  if (store.shown.action !== "game" || practising() || result.advice?.roll !== 0) return null;
  return result.advice.win !== undefined || result.advice.reach !== undefined ? result.position : null;
}

/** Draw `store.histogram` ({query, result} or {query, error}) if it is the chart of the answer shown. */
export function renderHistogram() {
  const box = $("#histogram");
  const shown = store.histogram;
  if (!shown || shown.query !== chartedQuery()) {
    box.hidden = true;
    drawn = null;
    return;
  }
  box.hidden = false;
  const key = `${shown.query}|${store.language}|${store.aim}|${shown.error ? "error" : "result"}`;
  if (key === drawn) return;
  drawn = key;
  box.dataset.query = shown.query;
  if (shown.error) {
    box.replaceChildren(el("p", { class: "hint", text: t("histogramFailed") }));
    return;
  }
  const d = shown.result.distribution;
  Object.assign(box.dataset, {
    expected: String(d.expected),
    bonus: String(d.bonus),
    exact: String(d.exact),
    play: d.play,
  });
  if (d.goal_chart) box.dataset.goalChart = d.goal_chart.reason;
  else delete box.dataset.goalChart;
  const target = readQuery(shown.query).target;
  const title =
    d.play === "average"
      ? t("histogramTitle")
      : target === null
        ? t("histogramTitleWin")
        : t("histogramTitleReach", target);
  const how = d.exact ? t("exact") : t("histogramSimulated", d.games, (100 * d.standard_error).toFixed(2));
  const facts = [t("histogramMean", formatExpected(d.expected)), t("histogramBonus", formatChance(d.bonus)), how];
  // Ranked by the goal's chance, a chart of the best average says why (the core's reason).
  const why = d.goal_chart && store.aim === "win" ? whyAverage(d.goal_chart, target) : "";
  box.replaceChildren(
    el("h3", { text: title }),
    why ? el("p", { class: "hint histogram-why", "data-testid": "histogram-why", text: why }) : "",
    chart(d, target),
    el("p", { class: "hint histogram-facts", text: facts.join(" · ") }),
  );
}

/** Why the chart is the best average's though the options are ranked by the goal's chance, from
 * the core's "goal_chart" ({reason: "free" | "files", free, opponent_free?}). */
function whyAverage(goal, target) {
  if (target === null) return t("histogramWhyWin", goal.free, goal.opponent_free);
  return goal.reason === "files" ? t("histogramWhyFiles", target) : t("histogramWhyReach", target, goal.free);
}

/** The bars: final scores with a chance ≥ 0.05 % (and the target) on the x axis. */
function chart(d, target) {
  const shown = d.p.map((p, i) => [d.from + i, p]).filter(([, p]) => p >= 0.0005);
  const lo = Math.min(shown[0][0], target ?? Infinity);
  const hi = Math.max(shown.at(-1)[0], target ?? -Infinity);
  const top = Math.max(...shown.map(([, p]) => p));
  const width = Math.max(280, Math.round($("#goal").clientWidth - 24 || 340));
  const height = 150;
  const pad = { left: 8, right: 8, top: 8, bottom: 24 };
  const span = Math.max(hi - lo + 1, 1);
  const bar = (width - pad.left - pad.right) / span;
  const x = (score) => pad.left + (score - lo) * bar;
  const y = (p) => pad.top + (1 - p / top) * (height - pad.top - pad.bottom);
  const step = tickStep(span, 5);
  const ticks = [];
  for (let s = Math.ceil(lo / step) * step; s <= hi; s += step) ticks.push(s);
  return svgEl(
    "svg",
    {
      class: "histogram-chart",
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": t("histogramDesc", formatExpected(d.expected), lo, hi),
    },
    ...shown.map(([score, p]) =>
      svgEl("rect", {
        class: target !== null && score >= target ? "bar reached" : "bar",
        x: x(score).toFixed(2),
        y: y(p).toFixed(2),
        width: Math.max(bar - (bar > 3 ? 1 : 0), 0.6).toFixed(2),
        height: (height - pad.bottom - y(p)).toFixed(2),
        "data-value": String(p),
      }),
    ),
    svgEl("line", {
      class: "axis",
      x1: pad.left,
      x2: width - pad.right,
      y1: height - pad.bottom,
      y2: height - pad.bottom,
    }),
    ...ticks.map((s) =>
      svgEl(
        "text",
        { class: "tick", x: (x(s) + bar / 2).toFixed(1), y: height - 8, "text-anchor": "middle" },
        String(s),
      ),
    ),
    target === null
      ? ""
      : svgEl("line", { class: "target", x1: x(target), x2: x(target), y1: pad.top, y2: height - pad.bottom }),
  );
}
