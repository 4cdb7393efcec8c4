import { $, el, svgEl } from "./dom.js";
import { formatExpected, formatSigned, t } from "../texts/texts.js";

export function tickStep(span, count) {
  const raw = Math.max(span, 1e-9) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

/** The least distance between the centres of two turn numbers (a two-digit number and a space). */
const TURN_LABEL_GAP = 15;

/** Positions as near `wanted` (ascending) as can be with `gap` between neighbours, within
 * [low + gap/2, high − gap/2] (when they fit there). */
export function spreadApart(wanted, gap, low, high) {
  const out = [...wanted];
  for (let i = 0; i < out.length; i++) out[i] = Math.max(out[i], i ? out[i - 1] + gap : low + gap / 2);
  for (let i = out.length - 1; i >= 0; i--)
    out[i] = Math.min(out[i], i < out.length - 1 ? out[i + 1] - gap : high - gap / 2);
  return out;
}

/** The chart of the expected final score along the game (SVG, drawn here). Besides it, the
 * same line with every loss added back: what the dice alone did (start + luck so far). The
 * band between them is what the decisions cost. */
export function reviewChart(review) {
  const points = review.series;
  const n = points.length;
  let lossSoFar = 0;
  let k = 0;
  const expected = points.map((p) => p.expected);
  const dice = points.map((p) => {
    if (p.after === "choice") lossSoFar += review.decisions[k++]?.loss ?? 0;
    return p.expected + lossSoFar;
  });
  const width = Math.max(280, Math.round($("#review-body").clientWidth || 340));
  const height = 210;
  const pad = { left: 40, right: 10, top: 10, bottom: 28 };
  const low = Math.min(...expected);
  const high = Math.max(...dice);
  const step = tickStep(high - low, 4);
  const y0 = Math.floor(low / step) * step;
  const y1 = Math.max(Math.ceil(high / step) * step, y0 + step);
  const x = (i) => pad.left + (n === 1 ? 0 : (i * (width - pad.left - pad.right)) / (n - 1));
  const y = (v) => pad.top + ((y1 - v) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const path = (values) => values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");

  const title = t("chartTitle");
  const desc = t(
    "chartDesc",
    formatExpected(review.start),
    formatExpected(review.last),
    formatSigned(review.luck),
    formatSigned(-review.total_loss),
  );
  const svg = svgEl(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-title chart-desc" },
    svgEl("title", { id: "chart-title", text: title }),
    svgEl("desc", { id: "chart-desc", text: desc }),
  );
  // Horizontal grid lines with their values.
  for (let v = y0; v <= y1 + step / 2; v += step) {
    svg.append(
      svgEl("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
      svgEl("text", {
        class: "tick",
        x: pad.left - 4,
        y: y(v) + 3.5,
        "text-anchor": "end",
        text: String(Math.round(v)),
      }),
    );
  }
  // Turns: a line where each begins, and every turn's number under its span (class "turn-tick"),
  // moved apart where turns are too narrow for their numbers.
  const starts = points.map((_, i) => i).filter((i) => i === 0 || points[i].turn !== points[i - 1].turn);
  const middles = starts.map((start, j) => (x(start) + x(Math.max(start, (starts[j + 1] ?? n) - 1))) / 2);
  const at = spreadApart(middles, TURN_LABEL_GAP, pad.left, width - pad.right);
  starts.forEach((start, j) => {
    if (j > 0)
      svg.append(svgEl("line", { class: "turn", x1: x(start), x2: x(start), y1: pad.top, y2: height - pad.bottom }));
    svg.append(
      svgEl("text", {
        class: "tick turn-tick",
        x: at[j].toFixed(1),
        y: height - pad.bottom + 13,
        "text-anchor": "middle",
        text: String(points[start].turn),
      }),
    );
  });
  svg.append(
    svgEl("text", { class: "axis", x: width - pad.right, y: height - 3, "text-anchor": "end", text: t("axisTurn") }),
    svgEl("polygon", { class: "cost", points: `${path(dice)} ${path(expected).split(" ").reverse().join(" ")}` }),
    svgEl("polyline", { class: "dice-line", points: path(dice) }),
    svgEl("polyline", { class: "expected-line", points: path(expected) }),
  );
  k = 0;
  points.forEach((p, i) => {
    if (p.after !== "choice") return;
    const decision = review.decisions[k++];
    if (decision?.loss > 0) svg.append(svgEl("circle", { class: "mistake", cx: x(i), cy: y(p.expected), r: 3 }));
  });
  const legend = el(
    "ul",
    { class: "legend" },
    el("li", {}, el("span", { class: "swatch expected-line", "aria-hidden": "true" }), t("legendExpected")),
    el("li", {}, el("span", { class: "swatch dice-line", "aria-hidden": "true" }), t("legendDice")),
    el("li", {}, el("span", { class: "swatch cost", "aria-hidden": "true" }), t("legendCost")),
  );
  return el("figure", { class: "chart-box", "data-testid": "chart" }, svg, legend);
}
