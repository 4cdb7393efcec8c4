// The note that answers a tap ("Link copied.", "Cleared Full House: …", a link to copy when the
// clipboard is refused; store.note): in the header's place while shown (the header's controls
// come back with it gone), so it covers no control and never moves the page. A plain note goes
// after a few seconds; one with a link stays until it is dismissed or the position changes.

import { $ } from "./dom.js";
import { store } from "../state/store.js";
import { t } from "../texts/texts.js";

/** How long a plain note stays (ms), and one that offers Undo (a game deleted). */
const NOTE_MS = 6000;
const UNDO_MS = 10_000;

let handlers = null;
let timer = null;
/** The note drawn now, and what had the focus when it was shown (it gets it back when the note is
 * dismissed). */
let drawn = null;
let opener = null;

/** The handlers the note calls (main.js): dismissNote(refocus), undoDelete(record). */
export function bindNote(given) {
  handlers = given;
  $("#note-close").addEventListener("click", () => handlers.dismissNote(true));
  $("#note-undo").addEventListener("click", () => drawn?.undo && handlers.undoDelete(drawn.undo));
}

export function renderNote() {
  const note = store.note;
  if (note === drawn) return;
  drawn = note;
  clearTimeout(timer);
  const undo = $("#note-undo");
  undo.hidden = !note?.undo;
  undo.textContent = t("undoDelete");
  if (note === null) {
    $("#note").textContent = "";
    $("#link-box").hidden = true;
    $("#note-box").hidden = true;
    return;
  }
  opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  $("#note").textContent = note.text;
  $("#link-box").hidden = note.link === null;
  $("#note-box").hidden = false;
  if (note.link !== null) {
    $("#link-label").textContent = note.label;
    const box = $("#link");
    box.value = note.link;
    box.focus();
    box.select();
  } else timer = setTimeout(() => handlers.dismissNote(false), note.undo ? UNDO_MS : NOTE_MS);
}

/** The focus back where it was when the note was shown. */
export function focusNoteOpener() {
  const back = opener;
  opener = null;
  back?.focus({ preventScroll: true });
}
