// The note in the title's place (store.appNote): "Offline ready", or "Update available"
// with its Reload button (requests/offline.js sets it).

import { $ } from "./dom.js";
import { store } from "../state/store.js";
import { t } from "../texts/texts.js";

export function renderAppNote() {
  const box = $("#app-note");
  box.hidden = store.appNote === null;
  if (!store.appNote) return;
  box.dataset.kind = store.appNote.kind;
  $("#app-note-text").textContent = t(store.appNote.kind === "update" ? "updateAvailable" : "offlineReady");
  $("#app-note-reload").hidden = store.appNote.kind !== "update";
}
