// Games kept on the device (saved.js): the offer to resume the game in progress when the site
// opens without a link (a toast over the page, data-testid="resume", so nothing moves), and the
// list of kept games, newest first, each to open (and review), share as its link, or delete; whether
// the browser keeps them for good (else how to keep them), Export and Import and what the last
// import said. The view renders what it is given and calls the handlers it is given (bindGames):
// resume(record), open(record), share(record), remove(record), dismiss(), exportGames(),
// importFile(file).

import { $, el, svgEl } from "./dom.js";
import { resultText } from "../model/result.js";
import { t } from "../texts/texts.js";

let handlers = null;

/** The handlers the list, the offer, Export and Import call (main.js). */
export function bindGames(given) {
  handlers = given;
  const input = $("#import-file");
  $("#export-games").addEventListener("click", () => handlers.exportGames());
  $("#import-games").addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const [file] = input.files;
    input.value = ""; // the same file can be chosen again
    if (file) handlers.importFile(file);
  });
}

/** The offer to resume `record` (null: none). */
export function renderResume(record) {
  const box = $("#resume");
  box.hidden = record === null;
  if (!record) return;
  const text = record.outcome
    ? t("resumeResult", recordStatus(record))
    : record.over
      ? t("resumeOver", record.score)
      : t("resumeGame", record.turn, record.score);
  $("#resume-text").textContent = text;
  $("#resume-go").onclick = () => handlers.resume(record);
  $("#resume-close").onclick = () => handlers.dismiss();
}

/** The dates' format of each language, made the first time a kept game is shown: making one
 * loads the locale's calendar data, about 90 ms on a page's first load. */
const dateFormats = new Map();

function dateFormat(language) {
  if (!dateFormats.has(language)) {
    dateFormats.set(language, new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }));
  }
  return dateFormats.get(language);
}

/** The kept games, newest first; `note`: what went wrong keeping them ("" when nothing);
 * `persisted`: whether the browser keeps them for good (null: not known yet); `message`: what
 * the last import said ({text, refused}), or null. */
export function renderGames(games, note, language, { persisted = null, message = null } = {}) {
  $("#games-note").textContent = note;
  $("#games-empty").hidden = games.length > 0;
  const storage = $("#games-storage");
  storage.hidden = games.length === 0 || persisted === null;
  storage.textContent = persisted ? t("storageKept") : t("storageMayGo");
  storage.dataset.persisted = String(persisted);
  $("#export-games").disabled = games.length === 0;
  const said = $("#import-message");
  said.textContent = message?.text ?? "";
  said.classList.toggle("refused", message?.refused === true);
  const when = games.length ? dateFormat(language) : null;
  $("#games-list").replaceChildren(
    ...games.map((record) => {
      const status = recordStatus(record);
      const versus = record.opponent === null || record.outcome ? "" : ` · ${t("gameOpponent", record.opponent)}`;
      const open = el("button", { type: "button", class: "game-open" }, `${practiceLabel(record)}${status}${versus}`);
      open.addEventListener("click", () => handlers.open(record));
      const share = el("button", { type: "button", "aria-label": t("shareGame", status) }, t("share"));
      share.addEventListener("click", () => handlers.share(record));
      const remove = el(
        "button",
        { type: "button", class: "danger", "aria-label": t("deleteGame", status) },
        t("delete"),
      );
      remove.addEventListener("click", () => handlers.remove(record));
      return el(
        "li",
        {
          class: "game",
          "data-testid": "kept-game",
          "data-id": record.id,
          "data-query": record.query,
          "data-mean-loss": record.practice?.meanLoss ?? null,
        },
        el("span", { class: "game-when", text: when.format(new Date(record.updated)) }),
        open,
        el("span", { class: "game-buttons-row" }, share, remove),
      );
    }),
  );
  renderProgress(games);
}

/** A kept game's state in words: "You won 184–148" (both sheets full), "Final score 184", or
 * "Turn 7, 106 points". */
function recordStatus(record) {
  if (record.outcome) return resultText({ outcome: record.outcome, mine: record.score, theirs: record.opponent });
  return record.over ? t("gameFinal", record.score) : t("gameAt", record.turn, record.score);
}

/** "Practice · mean loss 0.42 · " before a practice game's status. */
function practiceLabel(record) {
  if (!record.practice) return "";
  const loss = record.practice.meanLoss;
  return `${t("practiceGame")}${loss === null ? "" : ` (${t("practiceMeanLoss", loss.toFixed(2))})`} · `;
}

/** How many finished practice games the progress chart shows, the latest ones. */
const PROGRESS_GAMES = 20;

/** The mean loss per decision of the last finished and reviewed practice games, oldest first, as
 * a line (data-values: those losses). Hidden before the first. */
function renderProgress(games) {
  const figure = $("#practice-progress");
  const losses = games
    .filter((g) => g.over && g.practice && g.practice.meanLoss !== null)
    .slice(0, PROGRESS_GAMES)
    .map((g) => g.practice.meanLoss)
    .reverse();
  figure.hidden = losses.length === 0;
  figure.dataset.values = losses.map(String).join(",");
  if (!losses.length) return figure.replaceChildren();
  const [w, h, pad] = [300, 80, 6];
  const top = Math.max(0.5, ...losses);
  const x = (i) => (losses.length === 1 ? w / 2 : pad + ((w - 2 * pad) * i) / (losses.length - 1));
  const y = (v) => h - pad - ((h - 2 * pad) * v) / top;
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: "none", "aria-hidden": "true" });
  svg.append(svgEl("line", { class: "goal-line", x1: 0, x2: w, y1: y(0.2), y2: y(0.2) }));
  // One game: its level across the chart (a lone dot would say nothing of where it stands).
  const points = losses.length === 1 ? [`${pad},${y(losses[0])}`, `${w - pad},${y(losses[0])}`] : null;
  svg.append(svgEl("polyline", { points: points?.join(" ") ?? losses.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  for (const [i, v] of losses.entries()) svg.append(svgEl("circle", { cx: x(i), cy: y(v), r: 3 }));
  const fixed = (v) => v.toFixed(2);
  const summary = t("progressSummary", losses.length, fixed(losses.at(-1)), fixed(Math.min(...losses)));
  figure.replaceChildren(
    el("figcaption", {}, el("b", { text: t("progressHeading") }), " ", summary),
    svg,
    el(
      "p",
      { class: "hint progress-legend" },
      el("span", { class: "legend-line", "aria-hidden": "true" }),
      ` ${t("progressLine", fixed(0), fixed(top))} `,
      el("span", { class: "legend-goal", "aria-hidden": "true" }),
      ` ${t("progressGoal")}`,
    ),
    el("p", { class: "hint", text: t("lossHint") }),
  );
}
