// The error shown in the verdict's place: what failed to load (with Retry), or what is wrong with
// a link, said in the player's language, the part at fault highlighted and one fix offered; the
// CLI's exact message stays under "Details". Outside text (a link's names and values) is quoted.

import { $ } from "./dom.js";
import { categoryName } from "../model/rules.js";
import { store } from "../state/store.js";
import { quote, t } from "../texts/texts.js";

/** The parts of the page an error can point at (they get data-invalid). */
const TARGETS = { d: "#slots", r: "fieldset.roll", v: "fieldset.variant" };

/** What to say about a position error of a link, what to highlight and the fix:
 * {text, target (selector), fix: {kind, category?, label}}. */
let handlers = null;

/** The handlers the error's fix calls (main.js): fixLink(fix). */
export function bindError(given) {
  handlers = given;
}

export function describeLinkError(error, query) {
  const field = error.field;
  const message = error.message ?? "";
  if (field === "s") {
    const cell = /^s: field (\d+) /.exec(message);
    if (cell) {
      const c = Number(cell[1]) - 1;
      const name = categoryName(c);
      return {
        text: t("errSheetCell", name),
        target: `[data-testid=cell][data-category="${c}"]`,
        fix: { kind: "cell", category: c, label: t("fixCell", name) },
      };
    }
    return { text: t("errSheet"), target: "#sheet-grid", fix: { kind: "sheet", label: t("fixSheet") } };
  }
  if (field === "d") return { text: t("errDice"), target: TARGETS.d, fix: { kind: "dice", label: t("fixDice") } };
  if (field === "r") return { text: t("errRoll"), target: TARGETS.r, fix: { kind: "dice", label: t("fixDice") } };
  if (field === "v") {
    const name = new URLSearchParams(query).get("v") ?? "";
    return { text: t("errVariant", quote(name)), target: TARGETS.v, fix: { kind: "variant", label: t("fixVariant") } };
  }
  if ((field === "h" || field === "oh") && error.legal) {
    // A record that breaks at a turn keeps the legal game before it (yacht.play.game.LegalStart).
    const { query: legal, dropped, through_turn: through } = error.legal;
    const text = dropped.who === "me" ? t("errGameAt", dropped.turn) : t("errTheirTurnAt", dropped.turn);
    return { text, target: null, fix: { kind: "game", legal, label: t("fixGameLegal", through) } };
  }
  if (field === "h") return { text: t("errGame"), target: null, fix: { kind: "game", label: t("fixGame") } };
  if (field === "oh") {
    return { text: t("errOpponentTurns"), target: "#goal", fix: { kind: "game", label: t("fixGame") } };
  }
  if (field === "o" || field === "t") {
    return {
      text: t(field === "o" ? "errOpponent" : "errTarget"),
      target: "#goal",
      fix: { kind: "goal", label: t("fixGoal") },
    };
  }
  const unknown = /^query: unknown parameter (.+) \(known: /.exec(message); // the name already quoted by Python
  if (unknown)
    return { text: t("errParam", unknown[1]), target: null, fix: { kind: "param", label: t("fixParam", unknown[1]) } };
  if (field === "query") return { text: t("errQuery"), target: null, fix: { kind: "query", label: t("fixQuery") } };
  return {
    text: t("errParam", quote(field)),
    target: null,
    fix: { kind: "param", label: t("fixParam", quote(field)) },
  };
}

/** Show `store.loadError` or the error of `store.shown` (whichever there is); false when none. */
export function renderError() {
  const box = $("#error-box");
  const text = $("#error-text");
  const details = $("#error-details");
  const fixButton = $("#error-fix");
  for (const node of document.querySelectorAll("[data-invalid]")) node.removeAttribute("data-invalid");
  $("#retry").hidden = !store.loadError;
  fixButton.hidden = true;
  details.hidden = true;
  if (store.loadError) {
    const steps = t("steps");
    const step = Object.hasOwn(steps, store.loadError.step) ? steps[store.loadError.step] : store.loadError.step;
    text.textContent = t("loadFailed", step, store.loadError.message);
    $("#error-message").textContent = store.loadError.details ?? "";
    details.hidden = !store.loadError.details; // what the runtime itself said, folded
    box.hidden = false;
    return true;
  }
  const shown = store.shown;
  if (!shown?.error) {
    box.hidden = true;
    text.textContent = "";
    $("#error-message").textContent = "";
    return false;
  }
  const { error } = shown;
  box.hidden = false;
  if (error.kind !== "position") {
    text.textContent = t("internalError", error.message);
    return true;
  }
  $("#error-message").textContent = error.message;
  details.hidden = false;
  if (!shown.link) {
    text.textContent = error.message;
    return true;
  }
  const about = describeLinkError(error, shown.query);
  text.textContent = about.text;
  if (about.target) $(about.target)?.setAttribute("data-invalid", "");
  fixButton.textContent = about.fix.label;
  fixButton.hidden = false;
  fixButton.onclick = () => handlers.fixLink(about.fix);
  return true;
}
