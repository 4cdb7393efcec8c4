// Rendering the whole page from the store (each view renders its own part).

import { renderAppNote } from "./offline.js";
import { renderAdvice } from "./view-advice.js";
import { renderInput, renderLoading, renderStatic } from "./view-input.js";

/** Everything (at start, after the input was replaced wholesale: a link, Back, a new game). */
export function render() {
  renderStatic();
  renderInput();
  renderLoading();
  renderAdvice();
  renderAppNote();
}
