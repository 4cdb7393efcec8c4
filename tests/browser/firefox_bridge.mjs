// The Firefox half of the engine smoke tests (tests/browser/engine_firefox.py starts it):
// Debian's firefox-esr, headless, driven by puppeteer-core over WebDriver BiDi (no geckodriver).
//
//   node tests/browser/firefox_bridge.mjs <userDataDir> [executable]
//
// It launches the browser with that profile folder (kept: a second launch on it finds its
// storage), prints one JSON line {"ready": true, "version": ...} (or {"ready": false, "error": ...}
// and exits 1), then answers one JSON line per command read on stdin:
//   {"id": 1, "cmd": "goto", "args": {"url": "..."}}  ->  {"id": 1, "ok": true, "value": ...}
//                                                     or {"id": 1, "ok": false, "error": "..."}
// Commands: goto, reload, evaluate, wait_for, click, type_keys, screenshot, set_viewport,
// page_errors, loads_cut_short, close. Nothing but these lines goes to stdout (puppeteer's own output to stderr).
//
// Page errors: puppeteer's "pageerror" events, which Firefox's WebDriver BiDi sends for the page's
// uncaught errors and unhandled rejections and for those of its dedicated workers too (checked:
// an error thrown by a worker's script and a rejection in its onmessage both arrive), and dialogs.
// Console messages are not counted, as in the Chromium tests: worker failures need none of them.
//
// Loads cut short by leaving the page are not the page's errors: Firefox reports a worker's script
// still loading through the service worker when its page is left as two errors of the page,
// "Failed to load ‘<url>’. A ServiceWorker intercepted the request and encountered an unexpected
// error." and the worker's "NS_BINDING_ABORTED: " (tests/browser/test_firefox_bridge.py makes it
// happen; it does not when the page itself terminates the worker, nor when the page terminates it
// on pagehide). Those two, arriving while this bridge navigates (goto, reload), go to `cutShort`
// (the command loads_cut_short), not to the page's errors; any other error then still counts.

import process from "node:process";
import readline from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import puppeteer from "puppeteer-core";

const [profile, executable = "/usr/bin/firefox-esr"] = process.argv.slice(2);
const POLL_MS = 100;
const TRANSIENT = /context|navigat|destroyed|detached|no such (frame|node|handle)|discarded/i;

const errors = [];
const cutShort = [];
/** Firefox's words for a load that leaving the page ended (see above). */
const CUT_SHORT = [
  /^Failed to load ‘[^’]*’\. A ServiceWorker intercepted the request and encountered an unexpected error\.$/,
  /^NS_BINDING_ABORTED: /,
];
/** Whether a navigation of this bridge's (goto, reload) is under way. */
let navigating = false;
let browser;
let page;

function say(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// A function of the page's given as its source ("(a, b) => a + b", "async () => ..."): made a
// function here only to hand puppeteer the same source text (Function.prototype.toString) to call
// in the page; it is never called in Node.
function pageFunction(source) {
  return new Function(`return (\n${source}\n);`)();
}

function watch(target) {
  target.on("pageerror", (error) => {
    const message = String(error.message ?? error);
    const cut = navigating && CUT_SHORT.some((words) => words.test(message));
    (cut ? cutShort : errors).push(`error: ${message}`);
  });
  target.on("dialog", (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
}

async function waitFor({ function: source, args = [], timeout = 120 }) {
  const fn = pageFunction(source);
  const deadline = Date.now() + timeout * 1000;
  let last;
  let lastError = null;
  for (;;) {
    try {
      last = await page.evaluate(fn, ...args);
      lastError = null;
      if (last) return last;
    } catch (error) {
      if (!TRANSIENT.test(String(error.message))) throw error;
      lastError = error.message; // a navigation between two polls: try again
    }
    if (Date.now() > deadline) {
      const seen = lastError === null ? JSON.stringify(last ?? null) : `an error: ${lastError}`;
      throw new Error(`timed out after ${timeout} s waiting for ${source}; last value ${seen}`);
    }
    await sleep(POLL_MS);
  }
}

// What covers the middle of an element (null: the element itself or one inside it is hit there).
const COVER = `el => {
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  if (hit && (hit === el || el.contains(hit))) return null;
  return hit ? hit.outerHTML.slice(0, 120) : "nothing (outside the viewport)";
}`;

// A user's click as Playwright's: wait until the element is visible, enabled and still (puppeteer's
// locator), scroll it into view, refuse while another element covers its middle, then click there.
async function click({ selector, timeout = 120 }) {
  const deadline = Date.now() + timeout * 1000;
  let cover;
  for (;;) {
    const left = Math.max(deadline - Date.now(), 1);
    const element = await page.locator(selector).setTimeout(left).waitHandle();
    try {
      await element.scrollIntoView();
      cover = await element.evaluate(pageFunction(COVER));
      if (cover === null) {
        await element.click();
        return;
      }
    } finally {
      await element.dispose().catch(() => {});
    }
    await sleep(POLL_MS);
    if (Date.now() > deadline) throw new Error(`${selector} is covered by ${cover}`);
  }
}

/** Run `navigate` (a goto or a reload), marked as under way until it has settled. */
async function navigation(navigate) {
  navigating = true;
  try {
    await navigate();
  } finally {
    navigating = false;
  }
}

const commands = {
  goto: ({ url, timeout = 120 }) => navigation(() => page.goto(url, { waitUntil: "load", timeout: timeout * 1000 })),
  reload: ({ timeout = 120 }) => navigation(() => page.reload({ waitUntil: "load", timeout: timeout * 1000 })),
  evaluate: async ({ function: source, args = [] }) => page.evaluate(pageFunction(source), ...args),
  wait_for: waitFor,
  click,
  type_keys: async ({ text }) => {
    await page.keyboard.type(text);
  },
  screenshot: async ({ path }) => {
    await page.screenshot({ path, type: "png" });
  },
  set_viewport: async ({ width, height }) => {
    await page.setViewport({ width, height });
  },
  page_errors: async () => [...errors],
  loads_cut_short: async () => [...cutShort],
  close: async () => {
    await browser.close();
  },
};

async function main() {
  try {
    browser = await puppeteer.launch({
      browser: "firefox",
      protocol: "webDriverBiDi",
      executablePath: executable,
      headless: true,
      userDataDir: profile, // puppeteer's prefs for automation are written into it (user.js)
      // Scrollbars over the page, taking no room, as a phone's (and as the Chromium tests' headless
      // browser draws them): a desktop's classic ones would leave a 320 px viewport 308 px to lay out.
      extraPrefsFirefox: { "ui.useOverlayScrollbars": 1 },
    });
    page = (await browser.pages())[0] ?? (await browser.newPage());
    watch(page);
  } catch (error) {
    say({ ready: false, error: String(error.stack ?? error) });
    process.exit(1);
  }
  say({ ready: true, version: await browser.version() });

  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      say({ id: null, ok: false, error: `not a JSON line: ${error.message}` });
      continue;
    }
    const { id, cmd, args = {} } = request;
    const run = commands[cmd];
    if (!run) {
      say({ id, ok: false, error: `unknown command ${cmd}` });
      continue;
    }
    try {
      const value = await run(args);
      say({ id, ok: true, value: value === undefined ? null : value });
    } catch (error) {
      say({ id, ok: false, error: String(error.message ?? error) });
    }
    if (cmd === "close") break;
  }
  // stdin closed (the Python side gone) or "close" answered: leave no browser behind.
  if (browser.connected) await browser.close().catch(() => {});
  process.exit(0);
}

main();
