// Games kept on the device (saved.js): the offer to resume the game in progress when the site
// opens without a link (a toast over the page, data-testid="resume", so nothing moves), and the
// list of kept games, newest first, each to open (and review), share as its link, or delete.
// The view renders what it is given and calls the handlers it is given: resume(record),
// open(record), share(record), remove(record), dismiss().

import { $, el } from "./dom.js";
import { t } from "./texts.js";

/** The offer to resume `record` (null: none). */
export function renderResume(record, handlers) {
  const box = $("#resume");
  box.hidden = record === null;
  if (!record) return;
  const text = record.over ? t("resumeOver", record.score) : t("resumeGame", record.turn, record.score);
  $("#resume-text").textContent = text;
  $("#resume-go").onclick = () => handlers.resume(record);
  $("#resume-close").onclick = () => handlers.dismiss();
}

/** The kept games, newest first; `note`: what went wrong keeping them ("" when nothing). */
export function renderGames(games, note, handlers, language) {
  $("#games-note").textContent = note;
  $("#games-empty").hidden = games.length > 0;
  const when = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  $("#games-list").replaceChildren(
    ...games.map((record) => {
      const status = record.over ? t("gameFinal", record.score) : t("gameAt", record.turn, record.score);
      const versus = record.opponent === null ? "" : ` · ${t("gameOpponent", record.opponent)}`;
      const open = el("button", { type: "button", class: "game-open" }, `${status}${versus}`);
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
        { class: "game", "data-testid": "kept-game", "data-id": record.id, "data-query": record.query },
        el("span", { class: "game-when", text: when.format(new Date(record.updated)) }),
        open,
        el("span", { class: "game-buttons-row" }, share, remove),
      );
    }),
  );
}
