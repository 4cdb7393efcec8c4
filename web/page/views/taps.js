// Taps that land on what was not there. A tap that changes the page can leave another control
// under the finger (the picker closes over the keypad; the option list is drawn again): the
// second tap of a double tap, or a tap begun on one control and ended on another, must not act
// on it. A click (capture phase) is dropped when
//   - the press began on another control than the one it ends on, or
//   - it is the second tap of a double tap (the browser counts it: detail 2 or more), within
//     DOUBLE_MS and RADIUS px of the first, on another control whose first one is gone (drawn
//     again, or hidden: the page changed under the finger). The same control tapped twice (a
//     die of the keypad) acts twice; a control that opened something beside it (a cell and its
//     picker) leaves the next tap alone;
//   - it is the second tap of a double tap on a control marked data-tap-once (the verdict's
//     button: Keep, Roll): a double tap acts once there.
// Keyboard activations (click events with detail 0) always act.

const DOUBLE_MS = 500;
const RADIUS = 24; // px

const CONTROL = "button, a[href], input, select, textarea, summary, label, [role=button]";

let pressed = null;
let last = null;

const controlOf = (target) => (target instanceof Element ? target.closest(CONTROL) : null);

/** One control: the same element, one inside the other (a label and its input), or the same
 * control drawn again (a gone element whose successor has its tag, name and words: an option's
 * Keep, a practice die, redrawn by an answer between the press and the click). */
const same = (a, b) =>
  a === b ||
  a.contains(b) ||
  b.contains(a) ||
  (gone(a) &&
    a.tagName === b.tagName &&
    a.textContent === b.textContent &&
    a.getAttribute("aria-label") === b.getAttribute("aria-label"));

/** No longer on the page as it was: removed, or not drawn. */
const gone = (control) => !control.isConnected || control.getClientRects().length === 0;

function drop(event) {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Guard the document's taps (once, at start). */
export function guardTaps() {
  document.addEventListener("pointerdown", (event) => (pressed = controlOf(event.target)), true);
  document.addEventListener(
    "click",
    (event) => {
      if (event.detail === 0) return; // from the keyboard
      const control = controlOf(event.target);
      const began = pressed;
      pressed = null;
      if (!control) return;
      if (began && !same(began, control)) return drop(event);
      const near = last && Math.hypot(event.clientX - last.x, event.clientY - last.y) < RADIUS;
      const soon = last && event.detail >= 2 && event.timeStamp - last.time < DOUBLE_MS;
      if (soon && near && !same(last.control, control) && gone(last.control)) return drop(event);
      if (soon && last.control === control && control.hasAttribute("data-tap-once")) return drop(event);
      last = { time: event.timeStamp, x: event.clientX, y: event.clientY, control };
    },
    true,
  );
}
