// What the page's panels and disclosures do: the card's picker, the coach's Why? (under the
// verdict, on each option, on a practice's last choice, on a review's decisions), and the one-shot
// focus of the verdict's action. Each changes the store through update() and nothing else.

import { decisionKey, explainQuery, practiceChoice } from "../state/coach.js";
import { practising, store, update } from "../state/store.js";

/** Open the picker of `who` ("me" | "opponent") for category c; `opener`: the element that had
 * the focus (it gets it back when the picker closes). */
export function openPicker(who, c, opener) {
  update("picker", (s) => {
    s.picker = { who, category: c, opener };
    s.focus = { target: "picker" };
  });
}

/** Close the picker; `refocus`: give the focus back to the cell that opened it. */
export function closePicker(refocus = false) {
  const picker = store.picker;
  update("picker", (s) => {
    s.picker = null;
    if (refocus && picker) s.focus = { target: "picker-opener", picker };
  });
}

/** The verdict's action has taken the focus a completed roll asked for. */
export const verdictFocused = () => update("none", (s) => (s.focusVerdict = false));

/** Open or close the panel under the verdict (the Why? button); in practice, the last choice's. */
export function toggleWhy() {
  if (practising()) return togglePracticeWhy();
  update("why", (s) => (s.whyOpen = !s.whyOpen));
}

/** The option `key`'s Why? opened or closed (for the position explained now); `draw`: the
 * disclosure's toggle (its body is drawn and the explanation asked for), else a tap noted at once
 * (the toggle event comes a task later, and a list drawn meanwhile is drawn from the store). */
export function optionWhy(key, open, draw = true) {
  update(draw ? "why" : "none", (s) => {
    const now = explainQuery();
    if (s.whyOptions.query !== now) s.whyOptions = { query: now, keys: new Set() };
    if (open) s.whyOptions.keys.add(key);
    else s.whyOptions.keys.delete(key);
  });
}

/** The Why? button in a practice game: open or close the last choice's explanation. */
export function togglePracticeWhy() {
  const choice = practiceChoice();
  if (!choice) return;
  update("decisionWhy", (s) => {
    s.practiceWhy = s.practiceWhy === choice.record ? null : choice.record;
    if (s.practiceWhy !== null) wantDecision(s, choice.record, choice.index);
  });
}

/** A review decision's Why? (`key`: "<list>:<index>") opened or closed. */
export function reviewWhy(record, index, key, open) {
  update("decisionWhy", (s) => {
    if (s.reviewWhy.record !== record) s.reviewWhy = { record, keys: new Set() };
    if (open) s.reviewWhy.keys.add(key);
    else s.reviewWhy.keys.delete(key);
    if (open) wantDecision(s, record, index);
  });
}

/** A decision's explanation asked for again (Retry after a failure). */
export const retryDecision = (record, index) => update("decisionWhy", (s) => wantDecision(s, record, index));

/** The explanation of decision `index` of the game record `record` is wanted: asked for
 * (requests/) unless one is there or on its way; again after a failure. */
function wantDecision(s, record, index) {
  const key = decisionKey(record, index);
  const known = s.decisionWhy.get(key);
  if (known && !known.error) return;
  s.decisionWhy.set(key, { record, index, loading: true, sent: false });
}

/** The position's explanation asked for again (Retry after a failure). */
export const retryExplanation = () => update("why");
