// The in-page layout check: what a player sees, read from the rendered boxes (not from data
// attributes). Evaluated in the page, it defines window.yachtLayoutFaults(), which returns a list
// of faults, each a short sentence naming what is wrong and where:
//   - clipped text: a text box that runs out of an ancestor that clips it (overflow hidden or
//     clip; a scrolling box is not a clip), except a line elided with "…" that holds no digit;
//   - a number cut by an ellipsis: elided text that holds a digit;
//   - text out of its frame: a text box that runs out of the nearest ancestor drawn with a border
//     (a framed box that does not clip, as the verdict's), over or beyond its border;
//   - a number broken across lines: a number (its sign, digits, decimal point and thousands
//     separators) whose characters are drawn on more than one line ("−25.9" / "3点");
//   - a number alone on a line: a signed number (a loss, a change) of a text that takes several
//     lines drawn on a line with none of the text's other letters, its unit apart
//     ("次善: … 振り直す、" / "−0.84");
//   - overlapping text: two text boxes of different text nodes that overlap (text under an
//     overlay of the page, the picker or a note, is not drawn and is not counted);
//   - a covered control: a visible control whose centre is not the control itself
//     (document.elementFromPoint), checked over the whole page, one screen at a time;
//   - a chart mark not sized by its data: the bars of a chart (svg rect[data-value]) whose
//     rendered heights are not proportional to their values, or do not stand on one line.
(() => {
  const TOLERANCE = 1; // px
  const OVERLAP = 120; // px
  const LEADING = 0.25; // of a text box's height: the part two lines' boxes may share
  const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, summary, [role="button"]';

  const describe = (e) => {
    if (!e) return "?";
    const id = e.id ? `#${e.id}` : "";
    const testid = e.dataset?.testid ? `[data-testid=${e.dataset.testid}]` : "";
    const names = (e.getAttribute("class") ?? "").trim();
    const cls = names ? `.${names.split(/\s+/).join(".")}` : "";
    return `${e.tagName.toLowerCase()}${id}${testid}${cls}`;
  };
  const quote = (text) => JSON.stringify(text.trim().replace(/\s+/g, " ").slice(0, 60));

  // What depends on the computed style alone (not on where the page is scrolled) is worked out once
  // per element in a call of yachtLayoutFaults: `known` (emptied at its start) holds it.
  let known = new Map();
  const facts = (e) => {
    let fact = known.get(e);
    if (!fact) known.set(e, (fact = { style: getComputedStyle(e) }));
    return fact;
  };
  const styleOf = (e) => facts(e).style;
  const NO_CLIPPERS = Object.freeze([]);

  /** Not drawn for the eye: not displayed, hidden, or kept for screen readers only. */
  const unseen = (e) => {
    if (!e || e === document.documentElement) return false;
    const fact = facts(e);
    if (fact.unseen === undefined) {
      const style = fact.style;
      fact.unseen =
        e.hidden ||
        e.classList?.contains("visually-hidden") ||
        style.display === "none" ||
        style.visibility === "hidden" ||
        Number(style.opacity) === 0 ||
        (style.position === "absolute" && style.clip === "rect(0px, 0px, 0px, 0px)") || // for screen readers
        unseen(e.parentElement);
    }
    return fact.unseen;
  };

  /** `e` and its ancestors that clip their content (overflow hidden or clip on either axis). */
  const clippers = (e) => {
    if (!e || e === document.documentElement) return NO_CLIPPERS;
    const fact = facts(e);
    if (fact.clippers === undefined) {
      const style = fact.style;
      const clips = [style.overflowX, style.overflowY].some((v) => v === "hidden" || v === "clip");
      fact.clippers = clips ? [e, ...clippers(e.parentElement)] : clippers(e.parentElement);
    }
    return fact.clippers;
  };

  /** The text nodes drawn on the page, each with its element and its line height (NaN for
   * "normal"): the same wherever the page is scrolled, found once per call (`drawnText`, emptied
   * at its start with `known`). */
  let drawnText = null;
  const textNodes = () => {
    if (!drawnText) {
      drawnText = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data.trim()) continue;
        const element = node.parentElement;
        if (!element || unseen(element) || element.closest("script, style, title, option")) continue;
        drawnText.push({ node, element, line: parseFloat(styleOf(element).lineHeight) });
      }
    }
    return drawnText;
  };

  /** The text nodes drawn on the page, each with its element and its boxes (one per line). */
  function textBoxes() {
    const out = [];
    const range = document.createRange();
    for (const { node, element, line } of textNodes()) {
      range.selectNodeContents(node);
      // A text box is the font's ascent and descent; where they pass the line's own height (a
      // CJK font's 1.45 em in a 1.1 em line, as Firefox measures a Japanese page) the letters
      // stay within the line: the box is taken as tall as the line, about its middle.
      const rects = [...range.getClientRects()]
        .filter((r) => r.width > 0.5 && r.height > 0.5)
        .map((r) => {
          const excess = line > 0 ? Math.max(0, (r.height - line) / 2) : 0;
          return excess ? new DOMRect(r.x, r.y + excess, r.width, r.height - 2 * excess) : r;
        });
      if (rects.length) out.push({ node, element, rects });
    }
    return out;
  }

  const inside = (r, box) =>
    r.left >= box.left - TOLERANCE &&
    r.right <= box.right + TOLERANCE &&
    r.top >= box.top - TOLERANCE &&
    r.bottom <= box.bottom + TOLERANCE;

  /** The box inside which an element's content is drawn (its padding box). */
  const contentBox = (e) => {
    const r = e.getBoundingClientRect();
    const left = r.left + e.clientLeft;
    const top = r.top + e.clientTop;
    return { left, top, right: left + e.clientWidth, bottom: top + e.clientHeight };
  };

  function clippedText(boxes) {
    const faults = [];
    for (const { node, element, rects } of boxes) {
      for (const clip of clippers(element)) {
        const box = contentBox(clip);
        if (rects.every((r) => inside(r, box))) continue;
        const elided = styleOf(clip).textOverflow === "ellipsis";
        if (elided && !/\d/.test(node.data)) continue; // words elided with "…": allowed
        const what = elided ? "a number cut by an ellipsis" : "clipped text";
        faults.push(`${what}: ${quote(node.data)} in ${describe(element)}, cut by ${describe(clip)}`);
        break;
      }
    }
    return faults;
  }

  /** The nearest ancestor of `e` drawn with a border on every side, or null. */
  const frame = (e) => {
    if (!e || e === document.body) return null;
    const fact = facts(e);
    if (fact.frame === undefined) {
      const style = fact.style;
      const sides = ["Top", "Right", "Bottom", "Left"];
      const framed = sides.every(
        (side) => parseFloat(style[`border${side}Width`]) > 0 && style[`border${side}Style`] !== "none",
      );
      fact.frame = framed ? e : frame(e.parentElement);
    }
    return fact.frame;
  };

  function textOutOfFrame(boxes) {
    const faults = [];
    for (const { node, element, rects } of boxes) {
      const framed = frame(element);
      if (!framed) continue;
      const clips = clippers(element);
      const box = contentBox(framed);
      // A line's box holds its leading above and below the letters: that part may touch the frame.
      const letters = (r) => {
        const lead = LEADING * (r.bottom - r.top);
        return { left: r.left, right: r.right, top: r.top + lead, bottom: r.bottom - lead };
      };
      const drawn = rects.map((r) => visiblePart(r, clips)).filter(Boolean);
      if (drawn.every((r) => inside(letters(r), box))) continue;
      faults.push(`text out of its frame: ${quote(node.data)} in ${describe(element)}, out of ${describe(framed)}`);
    }
    return faults;
  }

  const NUMBER = /[−+-]?\d(?:[\d,.]*\d)?/g;

  function brokenNumbers(boxes) {
    const faults = [];
    const range = document.createRange();
    for (const { node, element, rects } of boxes) {
      if (rects.length < 2) continue; // one line: nothing broken
      for (const match of node.data.matchAll(NUMBER)) {
        if (match[0].length < 2) continue;
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
        if (lines.some((r) => Math.abs(r.top - lines[0].top) > (r.bottom - r.top) / 2))
          faults.push(`a number broken across lines: ${quote(match[0])} in ${quote(node.data)} (${describe(element)})`);
        else if (
          SIGNED.test(match[0]) &&
          aloneOnLine(node, match.index, match.index + match[0].length, lines[0], range)
        )
          faults.push(`a number alone on a line: ${quote(match[0])} in ${quote(node.data)} (${describe(element)})`);
      }
    }
    return faults;
  }

  /** A signed number: a loss or a change ("−0.84", "+1.2"), which must stay with its words (a
   * score such as "15点" may start a line of its own). */
  const SIGNED = /^[−+-]/u;

  /** A number's unit, written after it: "0.2 pts", "−1.2 pp", "−0.84点", "3ポイント", "47 %". */
  const UNIT = /^[\s\u00a0]*(?:pts?\b|pp\b|%|点|ポイント)/u;
  const LETTER = /[\p{L}\p{N}]/u;

  /** Whether no letter of `node` but the number at [start, end) and its unit is drawn on the
   * number's line (`line`: its box): the nearest letter before it and the one after its unit. */
  function aloneOnLine(node, start, end, line, range) {
    const text = node.data;
    const after = end + (text.slice(end).match(UNIT)?.[0].length ?? 0);
    const sameLine = (i) => {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = [...range.getClientRects()].find((b) => b.width > 0.5 && b.height > 0.5);
      return r !== undefined && Math.abs(r.top - line.top) <= (line.bottom - line.top) / 2;
    };
    let before = start - 1;
    while (before >= 0 && !LETTER.test(text[before])) before--;
    let next = after;
    while (next < text.length && !LETTER.test(text[next])) next++;
    if (before < 0 && next >= text.length) return false; // the number is the whole text
    return !(before >= 0 && sameLine(before)) && !(next < text.length && sameLine(next));
  }

  /** Whether the middle of `r` is under an overlay (a fixed element that does not hold `element`). */
  function underOverlay(r, element) {
    const x = (r.left + r.right) / 2;
    const y = (r.top + r.bottom) / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    if (!top || element.contains(top) || top.contains(element)) return false;
    for (let node = top; node && node !== document.body; node = node.parentElement) {
      if (styleOf(node).position === "fixed") return !node.contains(element);
    }
    return false;
  }

  /** The part of `r` its clipping boxes let be drawn, or null. */
  function visiblePart(r, clips) {
    let { left, right, top, bottom } = r;
    for (const clip of clips) {
      const box = contentBox(clip);
      left = Math.max(left, box.left);
      right = Math.min(right, box.right);
      top = Math.max(top, box.top);
      bottom = Math.min(bottom, box.bottom);
    }
    return right - left > TOLERANCE && bottom - top > TOLERANCE ? { left, right, top, bottom } : null;
  }

  function overlappingText(boxes) {
    const faults = [];
    const drawn = [];
    for (const { node, element, rects } of boxes) {
      const clips = clippers(element);
      for (const rect of rects) {
        const r = visiblePart(rect, clips);
        if (r && !underOverlay(r, element)) drawn.push({ node, element, r });
      }
    }
    drawn.sort((a, b) => a.r.top - b.r.top);
    const seen = new Set();
    for (let i = 0; i < drawn.length; i++) {
      for (let j = i + 1; j < drawn.length && drawn[j].r.top < drawn[i].r.bottom; j++) {
        const a = drawn[i];
        const b = drawn[j];
        if (a.node === b.node) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        // A text box is the font's whole height, its leading included: boxes of tightly set
        // lines touch by a pixel or two without their glyphs meeting.
        const shorter = Math.min(a.r.bottom - a.r.top, b.r.bottom - b.r.top);
        if (w <= TOLERANCE || h <= Math.max(TOLERANCE, LEADING * shorter)) continue;
        const key = `${quote(a.node.data)}|${quote(b.node.data)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        faults.push(
          `overlapping text: ${quote(a.node.data)} (${describe(a.element)}) and ${quote(b.node.data)} (${describe(b.element)}), ${w.toFixed(1)} × ${h.toFixed(1)} px`,
        );
      }
    }
    return faults;
  }

  /** The element a control is seen and tapped as: a radio or checkbox drawn by its label. */
  const target = (control) => {
    if (control.matches('input[type="radio"], input[type="checkbox"]') && control.closest("label")) {
      const style = styleOf(control);
      const r = control.getBoundingClientRect();
      if (Number(style.opacity) === 0 || r.width <= 1 || r.height <= 1) return control.closest("label");
    }
    return control;
  };

  /** Controls whose centre (in this screen) is another element's. */
  function coveredControls(faults) {
    for (const control of document.querySelectorAll(CONTROLS)) {
      const seenAs = target(control);
      if (unseen(seenAs)) continue;
      const r = seenAs.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const x = (r.left + r.right) / 2;
      const y = (r.top + r.bottom) / 2;
      if (x < 0 || y < 0 || x > innerWidth - 1 || y > innerHeight - 1) continue; // another screen's
      // A control inside a clipping box may be scrolled out of it: the box's own business.
      const clip = clippers(seenAs).find((c) => !inside({ left: x, right: x, top: y, bottom: y }, contentBox(c)));
      if (clip) continue;
      const top = document.elementFromPoint(x, y);
      if (top && (seenAs.contains(top) || top === seenAs)) continue;
      const where = top ? "" : ` (${x.toFixed(0)}, ${y.toFixed(0)} in ${innerWidth} × ${innerHeight} at ${scrollY})`;
      faults.add(
        `a covered control: ${describe(seenAs)} ${quote(seenAs.textContent || seenAs.getAttribute("aria-label") || "")} under ${describe(top)}${where}`,
      );
    }
  }

  function chartMarks() {
    const faults = [];
    for (const chart of document.querySelectorAll("svg")) {
      if (unseen(chart)) continue;
      const bars = [...chart.querySelectorAll("rect[data-value]")].map((bar) => ({
        bar,
        value: Number(bar.dataset.value),
        box: bar.getBoundingClientRect(),
      }));
      if (bars.length < 2) continue;
      const top = bars.reduce((a, b) => (b.value > a.value ? b : a));
      const scale = top.box.height / top.value;
      const base = top.box.bottom;
      for (const { bar, value, box } of bars) {
        const want = value * scale;
        if (Math.abs(box.height - want) > TOLERANCE + 0.01 * want) {
          faults.push(
            `a chart mark not sized by its data: ${describe(bar)} of ${value} drawn ${box.height.toFixed(1)} px high, ${want.toFixed(1)} px by the tallest bar`,
          );
        } else if (box.height > 0.5 && Math.abs(box.bottom - base) > TOLERANCE) {
          faults.push(
            `a chart mark off its axis: ${describe(bar)} of ${value} ends at ${box.bottom.toFixed(1)}, the axis at ${base.toFixed(1)}`,
          );
        }
      }
    }
    return faults;
  }

  /** Every fault of the page as it is drawn now, the whole page one screen at a time (scrolled
   * back where it was). */
  window.yachtLayoutFaults = () => {
    known = new Map();
    drawnText = null;
    const scrolled = scrollY;
    const covered = new Set();
    const texts = new Set();
    const height = document.documentElement.scrollHeight;
    // Screens overlap by OVERLAP px: every control's centre is well inside one of them.
    for (let y = 0; ; y += innerHeight - OVERLAP) {
      scrollTo(0, y);
      coveredControls(covered);
      const boxes = textBoxes();
      const found = [clippedText, textOutOfFrame, brokenNumbers, overlappingText].flatMap((check) => check(boxes));
      for (const fault of found) texts.add(fault);
      if (y + innerHeight >= height) break;
    }
    scrollTo(0, scrolled);
    return [...texts, ...covered, ...chartMarks()];
  };
})();
