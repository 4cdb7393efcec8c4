// The coach's lines, the same markup wherever an explanation is drawn (views/coach.js: under the
// verdict and in every option; views/coach-decision.js: a practice choice, a review decision), so
// one reader finds them all, in the command line's words (py/yacht/cli/coach_text.py, whose
// templates texts-coach.js's COACH_WORDS repeat key for key; tests/browser/test_coach_words.py
// holds them equal):
// - what an option plays for: the line (class "aims", data-play "average" or "goal") and its
//   entries, data-testid="aim" (data-kind "score" or "scratch", data-category, data-p: the aim's
//   chance, data-mean-points, data-scratch), and the chance of the upper bonus
//   (data-testid="bonus-chance": data-p);
// - why the best beats another (data-testid="why", data-total): its terms shown,
//   data-testid="why-term" (data-category: 0–11 or "bonus", data-points).

import { el } from "./dom.js";
import { categoryName, possible } from "../model/rules.js";
import { currentLanguage, t } from "../texts/texts.js";
import { COACH_WORDS, formatPercent, percentsApart, signed, whole } from "../texts/texts-coach.js";

/** Entries an aims line names at most (then "…"); an entry under LEAST_CHANCE is not named. */
const MOST_ENTRIES = 4;
const LEAST_CHANCE = 0.005;

const words = () => COACH_WORDS[currentLanguage()];

/** What identifies an option in an answer (as yacht.api's _option_key). */
export const optionKey = (o) => (o.keep ? `k${o.keep.join("")}:${o.category ?? ""}` : `c${o.category}`);

/** Fill `box` with the state of an explanation not there yet: busy (aria-busy) while `shown` is
 * missing or loading, or its error with Retry (`retry()`); true when it did. */
export function pending(box, shown, retry) {
  box.removeAttribute("aria-busy");
  if (!shown || shown.loading) {
    box.setAttribute("aria-busy", "true");
    box.replaceChildren(el("p", { class: "why-loading", text: t("explainLoading") }));
    return true;
  }
  if (!shown.error) return false;
  const button = el("button", { type: "button", class: "why-retry", text: t("retry") });
  button.addEventListener("click", retry);
  box.replaceChildren(
    el("p", { class: "why-error", role: "alert", text: t("explainFailed", shown.error.message) }),
    button,
  );
  return true;
}

/** An option as a short phrase ("Keep 4 4", "Reroll all", "Score Choice now", "Score Choice");
 * `short`: a keep as its dice alone. */
export function optionWords(option, short = false) {
  const w = words();
  if (!option.keep) return w.score(categoryName(option.category));
  if (option.keep.length === 5 && option.category !== undefined) return w.stop(categoryName(option.category));
  if (!option.keep.length) return w.reroll;
  const dice = option.keep.join(" ");
  return short ? dice : w.keep(dice);
}

/** The option `best` is set against, as "(not …)" says it (coach_text.other_words): its dice alone
 * when both keep dice ("Keep 2 3 (not 1 2 3)"), else its whole phrase, in English in lower case
 * ("Score Yacht now (not keep 1 1 1 1)"). */
function otherWords(best, other) {
  const keepsDice = (o) => o.keep?.length > 0 && o.category === undefined;
  if (keepsDice(best) && keepsDice(other)) return optionWords(other, true);
  const words = optionWords(other);
  return currentLanguage() === "en" ? words[0].toLowerCase() + words.slice(1) : words;
}

/** The aims of `kind` as entry elements, most likely first (coach_text._entries): "score", a score
 * (with its mean where the category has more than one score above 0), or "scratch", a scratch;
 * those under LEAST_CHANCE left out. */
function entries(aims, variant, kind) {
  const w = words();
  const found = [];
  for (const aim of aims) {
    const c = aim.category;
    const scratch = aim.scratch ?? 0;
    const scored = aim.p - scratch;
    const data = {
      "data-testid": "aim",
      "data-category": c,
      "data-p": String(aim.p),
      "data-mean-points": String(aim.mean_points),
      "data-scratch": String(scratch),
    };
    if (kind === "score" && scored >= LEAST_CHANCE) {
      const several = possible(variant, c).filter((v) => v > 0).length > 1;
      const mean = (aim.p * aim.mean_points) / scored;
      const p = formatPercent(scored);
      const text = several ? w.entryAvg(categoryName(c), p, mean) : w.entry(categoryName(c), p);
      found.push({ order: [-scored, c], node: el("span", { class: "aim", "data-kind": "score", ...data, text }) });
    }
    if (kind === "scratch" && scratch >= LEAST_CHANCE) {
      const text = w.entry(categoryName(c), formatPercent(scratch));
      found.push({ order: [-scratch, c], node: el("span", { class: "aim", "data-kind": "scratch", ...data, text }) });
    }
  }
  found.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
  return found.map((f) => f.node);
}

/** The scores played for, then the scratches the game ends by (coach_text._parts), as groups. */
function parts(aims, variant) {
  const [scores, scratches] = ["score", "scratch"].map((kind) => entries(aims, variant, kind));
  const groups = scores.length || !scratches.length ? [listed(scores)] : [];
  return scratches.length ? [...groups, [`${words().scratch} `, ...listed(scratches)]] : groups;
}

/** Entries joined, at most MOST_ENTRIES, then "…". */
function listed(nodes) {
  const w = words();
  const shown = nodes.slice(0, MOST_ENTRIES);
  const parts = shown.flatMap((node, i) => (i ? [w.join, node] : [node]));
  return nodes.length > MOST_ENTRIES ? [...parts, w.join, w.more] : parts;
}

/** The lead words of an aims line (coach_text.aims_lead; `beside`: a line under the goal's play
 * is shown too). */
function aimsLead(option, goal, target, measure, beside) {
  const w = words();
  if (goal) return measure === "win" ? w.playsWin : w.playsReach(target);
  if (option.plan?.kind === "draw") return w.draw;
  if (option.plan?.kind === "score" || option.plan?.kind === "scratch") return "";
  return beside ? w.playsAverage : w.plays;
}

/** The body of an aims line (coach_text.aims_body), as nodes. */
function aimsBody(option, variant, goal) {
  const w = words();
  const plan = goal ? null : option.plan;
  const bonus = goal
    ? []
    : [
        el("span", {
          class: "aim",
          "data-testid": "bonus-chance",
          "data-p": String(option.bonus),
          text: w.bonus(formatPercent(option.bonus)),
        }),
      ];
  const groups = [];
  if (plan?.kind === "score" || plan?.kind === "scratch") {
    const c = categoryName(plan.category);
    groups.push([plan.kind === "scratch" ? w.scratches(c) : w.scores(whole(plan.points), c)]);
  } else {
    const aims = goal ? option.goal_aims : option.aims;
    if (plan?.kind === "draw") {
      const straights = aims.filter((a) => plan.categories.includes(a.category));
      const rest = parts(
        aims.filter((a) => !plan.categories.includes(a.category)),
        variant,
      );
      groups.push(...parts(straights, variant));
      if (rest.some((group) => group.length)) {
        groups.push([`${w.drawElse} `, ...rest.flatMap((group, i) => (i ? [w.then, ...group] : group))]);
      }
    } else groups.push(...parts(aims, variant));
  }
  if (bonus.length) groups.push(bonus);
  return groups.flatMap((group, i) => (i ? [w.then, ...group] : group));
}

/** What `option` plays for, in the command line's words (coach_text.aims_words): "plays for Choice
 * 67 % (avg 22.8), Full House 33 %; ends by scratching Yacht 3 %; bonus 64 %". `goal`: the aims under the
 * goal's play (option.goal_aims: "to win, plays for …", "to reach 200, plays for …"; `measure`
 * "win" or "reach", `target`), with no bonus chance (it is the average play's); `prefix`: words
 * before the line ("Best (Keep 4 4): "); `attrs`: more attributes of the line; `beside`: the
 * average's line shown beside the goal's ("on average, plays for …"). */
export function aimsLine(
  option,
  variant,
  { goal = false, measure = "win", target = null, prefix = "", attrs = {}, beside = false } = {},
) {
  const lead = aimsLead(option, goal, target, measure, beside);
  const head = lead ? [el("b", { text: lead }), " "] : [];
  const play = goal ? "goal" : "average";
  return el("p", { class: "aims", "data-play": play, ...attrs }, prefix, ...head, ...aimsBody(option, variant, goal));
}

/** "Keep 4 4 (not 4 4 6 6): +2.4 bonus, +0.9 Yacht, −4.2 Full House … = +0.76 pts": why `best`
 * beats `other`, from other's why (coach_text.why_words). */
export function whyLine(best, other, why) {
  const w = words();
  const what = w.not(optionWords(best), otherWords(best, other));
  const line = el("p", { class: "why", "data-testid": "why" });
  if (!why?.shown?.length) {
    line.textContent = w.same(what);
    return line;
  }
  line.dataset.total = String(why.total);
  line.append(`${what}: `);
  if (why.goal) {
    const [b, o] = percentsApart(why.goal.best, why.goal.other);
    line.append(`${why.goal.measure === "win" ? w.goalWin(b, o) : w.goalReach(b, o)} `);
  }
  const clauses = [];
  if (why.dump) {
    const c = categoryName(why.dump.category);
    clauses.push(why.dump.now === 0 ? w.dumpScratch(c) : w.dump(whole(why.dump.now), c));
  }
  if (why.open) clauses.push(w.open(categoryName(why.open.category), why.open.later, whole(why.open.now)));
  if (clauses.length) line.append(clauses.join(w.then) + w.then);
  why.shown.forEach((index, i) => {
    const term = why.terms[index];
    if (i) line.append(w.join);
    const name = term.category === "bonus" ? w.bonusTerm : categoryName(term.category);
    line.append(
      el("span", {
        "data-testid": "why-term",
        "data-category": String(term.category),
        "data-points": String(term.points),
        text: w.term(signed(term.points, 1), name),
      }),
    );
  });
  if (why.shown.length < why.terms.length) line.append(` ${w.more}`);
  line.append(` ${w.total(signed(why.total, 2))}`);
  return line;
}
