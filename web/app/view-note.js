// The note that answers a tap ("Link copied.", "Cleared Full House: …", a link to copy when the
// clipboard is refused): in the header's place while shown (the header's controls come back with
// it gone), so it covers no control and never moves the page. A plain note goes after a few
// seconds; one with a link stays until it is dismissed or the position changes.

import { $ } from "./dom.js";

/** How long a plain note stays (ms). */
const NOTE_MS = 6000;

let timer = null;
/** What had the focus when the note was shown: it gets it back when the note is dismissed. */
let opener = null;

/** Show `text`; `link`: a URL to show selected in a text box (the fallback of Share), with its
 * `label`. */
export function showNote(text, link = null, label = "") {
  clearTimeout(timer);
  opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  $("#note").textContent = text;
  $("#link-box").hidden = link === null;
  $("#note-box").hidden = false;
  if (link !== null) {
    $("#link-label").textContent = label;
    const box = $("#link");
    box.value = link;
    box.focus();
    box.select();
  } else timer = setTimeout(clearNote, NOTE_MS);
}

export function clearNote() {
  clearTimeout(timer);
  $("#note").textContent = "";
  $("#link-box").hidden = true;
  $("#note-box").hidden = true;
}

/** The note's Dismiss button: the header comes back, the focus where it was. */
export function bindNote() {
  $("#note-close").addEventListener("click", () => {
    const back = opener;
    clearNote();
    opener = null;
    back?.focus({ preventScroll: true });
  });
}
