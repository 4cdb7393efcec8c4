// Playing to win: the goal card (best average, beat an opponent whose sheet is entered, or reach
// a score), and how a goal's answer is ranked and told. With o= the advisor's answer and every
// option carry "win" and "draw" (ranked by win + draw/2); with t=, "reach" (yacht.chances.goal). The
// switch "Chance" / "Average" ranks the same options by that chance or by the expected score.
// The opponent's sheet is the score card's second column (views/card.js); here, only whether their
// count of filled categories fits the turn order. The view calls the handlers it is given
// (buildGoal): setGoal(kind), setTarget(score).

import { $ } from "./dom.js";
import { turnOrderCounts } from "../model/formats.js";
import { store } from "../state/store.js";
import { t } from "../texts/texts.js";
import { formatChance } from "../texts/texts-goal.js";

let handlers = null;

/** The controls (built once, when rules.json has loaded; main.js wires the aim switch, which
 * only redraws). */
export function buildGoal(given) {
  handlers = given;
  for (const radio of document.querySelectorAll("input[name=goal]")) {
    radio.addEventListener("change", () => handlers.setGoal(radio.value));
  }
  $("#pack-action").addEventListener("click", () => {
    const variant = packVariant();
    handlers.wishPack(variant, store.packs[variant]?.state === "downloading" ? "cancel" : "download");
  });
  // A score out of range stays in the box, the range said beside it, until it is corrected.
  $("#target").addEventListener("change", (event) => {
    const text = event.target.value.trim();
    targetInvalid = !/^[0-9]{1,3}$/.test(text);
    if (!targetInvalid) handlers.setTarget(Number(text));
    renderTargetError(text);
  });
}

/** The score to reach typed is not one (it stays in the box until corrected). */
let targetInvalid = false;

function renderTargetError(text) {
  const error = $("#target-error");
  error.hidden = !targetInvalid;
  error.textContent = targetInvalid ? t("targetRange", text) : "";
  if (targetInvalid) $("#target").setAttribute("aria-invalid", "true");
  else $("#target").removeAttribute("aria-invalid");
}

export const goalKind = (state) => (state.opponent ? "opponent" : state.target !== null ? "target" : "none");

export function renderGoal() {
  const playing = store.game !== null;
  const s = store.state;
  const kind = goalKind(s);
  for (const radio of document.querySelectorAll("input[name=goal]")) {
    radio.checked = radio.value === kind;
    radio.disabled = playing;
  }
  const theirTurn = playing && store.stage.phase === "opponent";
  let hint = kind === "none" ? t(playing ? "goalInGame" : "goalHint") : "";
  if (theirTurn) hint = t("opponentTurn");
  else if (playing && kind === "opponent") hint = t("opponentInGame");
  else if (playing && kind === "target") hint = t("targetInGame", s.target);
  $("#goal-hint").textContent = hint;
  $("#goal-hint").classList.toggle("prompt", theirTurn);
  $("#target-box").hidden = kind !== "target";
  $("#aim-box").hidden = kind === "none";
  for (const radio of document.querySelectorAll("input[name=aim]")) radio.checked = radio.value === store.aim;
  if (kind !== "target") targetInvalid = false;
  if (s.target !== null && !targetInvalid && document.activeElement !== $("#target")) {
    $("#target").value = String(s.target);
  }
  renderTargetError($("#target").value.trim());
  $("#target").disabled = playing;
  // Their count of filled categories must fit the turn order: what to enter, said only when it does not.
  const out = rivalLeftOut();
  $("#opponent-sums").hidden = out === null;
  $("#opponent-sums").textContent = out ? t("opponentTurns", out.theirs, out.mine, out.first, out.second) : "";
  renderPack(kind !== "none");
}

/** A rival's sheet being entered whose count of filled categories does not fit my turn yet (the
 * advice leaves it out: state/store.js's currentQuery): {theirs, mine, first, second} (their
 * count, mine, and theirs at my turn if I play first or second), or null. */
export function rivalLeftOut() {
  const s = store.state;
  if (store.game || !s.opponent) return null;
  const theirs = s.opponent.filter((v) => v !== null).length;
  const [first, second] = turnOrderCounts(s.sheet);
  if (theirs === first || theirs === second) return null;
  return { theirs, mine: s.sheet.filter((v) => v !== null).length, first, second };
}

const packVariant = () => store.state.variant ?? store.rules?.default_variant;

/** The offline pack of the rules shown, where playing to win is set: its size and a Download
 * (Resume after a stop), a progress bar with Cancel while it downloads, or that playing to win
 * works offline now. data-testid="pack" with data-state (none, partial, downloading, ready,
 * failed), data-variant, data-received and data-total (bytes). */
function renderPack(goal) {
  const box = $("#pack");
  const variant = packVariant();
  const pack = store.packs[variant];
  box.hidden = !goal || !pack || pack.state === "unavailable";
  if (box.hidden) return;
  Object.assign(box.dataset, { state: pack.state, variant, received: pack.received, total: pack.total });
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const progress = $("#pack-progress");
  progress.hidden = pack.state !== "downloading";
  progress.value = pack.total ? pack.received / pack.total : 0;
  progress.setAttribute("aria-label", t("packProgress"));
  const texts = {
    none: t("packOffer", mb(pack.total)),
    partial: t("packPartial", mb(pack.received), mb(pack.total)),
    downloading: t("packDownloading", mb(pack.received), mb(pack.total)),
    ready: t("packReady"),
    failed: t("packFailed", pack.message ?? "", mb(pack.received), mb(pack.total)),
    nospace: t("packNoSpace", mb(pack.needed ?? pack.total - pack.received)),
  };
  $("#pack-text").textContent = texts[pack.state] ?? "";
  const action = $("#pack-action");
  action.hidden = pack.state === "ready";
  action.textContent = t(
    pack.state === "downloading" ? "packCancel" : pack.state === "none" ? "packDownload" : "packResume",
  );
}

/** The chance an option (or an answer) is ranked by with a goal: win + draw/2, or reach; null
 * without a goal. */
export function chanceOf(option) {
  if (option.win !== undefined) return option.win + option.draw / 2;
  return option.reach ?? null;
}

/** The options of an answer in the order the aim asks, each with the rank the core gave it
 * (yacht.core.ranking: tied options share one): with a goal and the aim "win", the answer's
 * order and "rank" (by the chance, then the expected score); with the aim "average", its
 * "average_order" and "average_rank" (by the expected score alone); without a goal, the
 * answer's order and "rank". `byChance`: the order is the goal's chance (not in a decided
 * game, "decided": its order is the expected score's). Never ranked here.
 * Returns {ranked: [{option, rank}], byChance}. */
export function aimedOptions(result) {
  const options = result.options ?? [];
  const goal = options.length > 0 && chanceOf(options[0]) !== null;
  if (goal && store.aim !== "win") {
    const ranked = result.average_order.map((i) => ({ option: options[i], rank: options[i].average_rank }));
    return { ranked, byChance: false };
  }
  // A decided game (every chance certain and the same) is ordered by the expected score.
  return { ranked: options.map((option) => ({ option, rank: option.rank })), byChance: goal && !result.decided };
}

/** The chance of an option in words: "Win chance 62.7 % (draw 0.8 %)", "Chance of
 * reaching 200: ≈ 41.2 %" (≈: `approximate`); "" without a goal. */
export function chanceText(option, target, approximate = false) {
  const mark = approximate ? "≈ " : "";
  if (option.win !== undefined) {
    return t(
      "winChance",
      mark + formatChance(chanceOf(option)),
      option.draw >= 0.0005 ? formatChance(option.draw) : "",
    );
  }
  if (option.reach !== undefined) return t("reachChance", target, mark + formatChance(option.reach));
  return "";
}

/** The words beside the chance of `result` (an answer) that went without files it could not fetch
 * (its "estimate", yacht.api): "estimate, no network" (or that the files were not fetched), or,
 * without any chance, that the options are by average; "" when it is no estimate. */
export function estimateWord(result) {
  const estimate = result?.estimate;
  if (!estimate || result.decided) return "";
  const where = store.online ? "Network" : "Offline";
  return t(estimate.chance ? `estimateWord${where}` : `noChanceWord${where}`);
}

/** `chance` (chanceText's words) with the estimate's words beside it (estimateWord), or those alone. */
export const withEstimate = (chance, word) => (chance && word ? `${chance} ${t("estimateTag", word)}` : chance || word);

/** Where the answer `result` went without files it could not fetch (its "estimate",
 * yacht.api): the note in the goal card says so and why (no network, or a failed fetch; the
 * verdict's short words beside the chance are estimateWord's), with
 * data-lacking (the kinds), data-chance ("true": an estimate shown, "false": none) and
 * data-online; hidden otherwise. */
export function renderEstimate(result) {
  const note = $("#estimate");
  const estimate = result?.estimate ?? null;
  note.hidden = estimate === null;
  if (!estimate) {
    note.textContent = "";
    for (const name of ["lacking", "chance", "online"]) delete note.dataset[name];
    return;
  }
  const key = estimate.chance ? "estimate" : "noChance";
  note.textContent = t(`${key}${store.online ? "Network" : "Offline"}`);
  note.dataset.lacking = estimate.lacking.join(" ");
  note.dataset.chance = String(estimate.chance);
  note.dataset.online = String(store.online);
}

/** The data-* attributes of an option's chances (data-win, data-draw, data-reach). */
export const chanceData = (option) => ({
  "data-win": option.win === undefined ? null : String(option.win),
  "data-draw": option.draw === undefined ? null : String(option.draw),
  "data-reach": option.reach === undefined ? null : String(option.reach),
});
