export const SVG_NS = "http://www.w3.org/2000/svg";
// Small helpers ------------------------------------------------------------------------------

export const $ = (selector) => document.querySelector(selector);

/** A new element: `attrs` become attributes (`text`: textContent); children are nodes or text. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  node.append(...children);
  return node;
}

/** A new SVG element, as `el`. */
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  node.append(...children);
  return node;
}

export function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

// Pip positions on a 3 × 3 grid, 1–9 row by row.
export const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

/** A die drawn with pips (decorative: the control or text around it carries the name). */
export function drawDie(face, size = "") {
  const die = el("span", { class: `die ${size}`.trim(), "aria-hidden": "true", "data-face": face });
  for (const p of PIPS[face]) die.append(el("span", { class: `pip p${p}` }));
  return die;
}
