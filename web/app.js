// The advisor page: entry of a position, its advice, the position in the URL.
//
// The page is usable at once: it reads rules.json (category names, the scores each category
// can take, the points of every roll) and lets a position be entered while the worker
// (worker.js: Pyodide + NumPy + our package) loads. Advice follows every change of the input.
//
// The position lives in the URL query in the CLI's format (yacht.position), rewritten with
// history.replaceState on every change. A link is checked by Python, so a bad one shows the
// CLI's message. Text reaches the page only through textContent and attributes, never as HTML.

const N_DICE = 5;
const MINUS = "\u2212";
const LANGUAGE_KEY = "yacht.language";

// Texts ------------------------------------------------------------------------------------

const TEXTS = {
  en: {
    title: "Yacht advisor",
    language: "Language",
    turn: "This turn",
    roll: "Roll",
    roll1: "Roll 1",
    roll2: "Roll 2",
    roll3: "Roll 3",
    dice: "Dice",
    keypad: "Add a die",
    addDie: (face) => `Add ${face}`,
    removeDie: (i, face) => `Remove die ${i} (${face})`,
    backspace: "Delete last",
    clearDice: "Clear dice",
    diceHintEmpty: "Tap the faces you rolled",
    diceHintMore: (n) => `${n} more to enter`,
    diceHintFull: "Tap a die to remove it",
    advice: "Advice",
    loadingNote: "Loading the advisor… You can enter a position meanwhile.",
    steps: {
      page: "Page data",
      runtime: "Python runtime (Pyodide)",
      numpy: "NumPy",
      package: "Advisor package",
      table: "Table",
    },
    stepStates: { start: "loading…", done: "done", failed: "failed" },
    retry: "Retry",
    loadFailed: (step, message) => `Could not load the advisor (${step}): ${message}`,
    linkError: (message) => `This link is not a valid position. ${message}`,
    internalError: (message) => `The advisor failed: ${message}`,
    waiting: "Advice appears here once the advisor has loaded.",
    beforeRoll: (expected, score) => `Before rolling: expected final score ${expected} (sheet now ${score}).`,
    needDice: (n, expected) => `Enter ${n} more ${n === 1 ? "die" : "dice"} for advice. Expected final score ${expected}.`,
    bestPlay: (expected, score) => `Expected final score with the best play: ${expected} (sheet now ${score}).`,
    over: (score) => `Game over. Final score: ${score}.`,
    keepNone: "Reroll all dice",
    keep: (dice) => `Keep ${dice}`,
    stop: (category, points) => `Stop: ${category} ${points}`,
    scoreAs: (category, points) => `${category} ${points}`,
    bonusPoints: (points) => `${points} + 35 bonus`,
    expectedLabel: "expected final score",
    lossLabel: "loss",
    best: "best",
    applyKeep: "Keep",
    applyKeepName: (dice) => `Keep ${dice} and roll again`,
    applyReroll: "Reroll",
    applyRerollName: "Reroll all dice",
    applyScore: "Score",
    applyScoreName: (category) => `Score ${category}`,
    sheet: "Scoresheet",
    rules: "Rules",
    official: "Official",
    strict: "Strict",
    variantHint: "Strict: five of a kind is not a Full House.",
    subtotal: "Subtotal",
    bonus: "Bonus",
    total: "Total",
    bonusNeed: (n) => `${n} more for +35`,
    emptyCell: "–",
    preview: (points) => `→ ${points}`,
    previewName: (points) => `these dice score ${points}`,
    actions: "Actions",
    share: "Share",
    newGame: "New game",
    confirmNew: "Clear the sheet and start a new game?",
    confirmYes: "Clear the sheet",
    cancel: "Cancel",
    copied: "Link copied.",
    shared: "Shared.",
    copyFailed: "Copy the link below.",
    linkLabel: "Link to this position",
    keys: "Keys: 1–6 add a die, Backspace deletes it, R changes the roll.",
    variantCleared: (names) => `Cleared ${names}: not a possible score under these rules.`,
  },
  ja: {
    title: "ヨット アドバイザー",
    language: "言語",
    turn: "このターン",
    roll: "何投目",
    roll1: "1投目",
    roll2: "2投目",
    roll3: "3投目",
    dice: "サイコロ",
    keypad: "サイコロを追加",
    addDie: (face) => `${face}を追加`,
    removeDie: (i, face) => `${i}個目のサイコロ (${face}) を削除`,
    backspace: "1つ消す",
    clearDice: "サイコロを消す",
    diceHintEmpty: "出た目をタップ",
    diceHintMore: (n) => `あと${n}個`,
    diceHintFull: "タップで削除",
    advice: "アドバイス",
    loadingNote: "アドバイザーを読み込み中… その間も入力できます。",
    steps: {
      page: "ページのデータ",
      runtime: "Python 実行環境 (Pyodide)",
      numpy: "NumPy",
      package: "アドバイザー",
      table: "期待値表",
    },
    stepStates: { start: "読み込み中…", done: "完了", failed: "失敗" },
    retry: "再試行",
    loadFailed: (step, message) => `アドバイザーを読み込めませんでした (${step}): ${message}`,
    linkError: (message) => `このリンクの局面は正しくありません。${message}`,
    internalError: (message) => `アドバイザーでエラーが起きました: ${message}`,
    waiting: "読み込みが終わると、ここにアドバイスが出ます。",
    beforeRoll: (expected, score) => `振る前: 最終得点の期待値 ${expected} (現在 ${score}点)`,
    needDice: (n, expected) => `あと${n}個入力するとアドバイスが出ます。最終得点の期待値 ${expected}`,
    bestPlay: (expected, score) => `最善手での最終得点の期待値: ${expected} (現在 ${score}点)`,
    over: (score) => `ゲーム終了。最終得点: ${score}点`,
    keepNone: "全部振り直す",
    keep: (dice) => `${dice} を残す`,
    stop: (category, points) => `止めて ${category} ${points}点`,
    scoreAs: (category, points) => `${category} ${points}点`,
    bonusPoints: (points) => `${points} + ボーナス35`,
    expectedLabel: "最終得点の期待値",
    lossLabel: "損失",
    best: "最善",
    applyKeep: "残す",
    applyKeepName: (dice) => `${dice} を残す (振り直し)`,
    applyReroll: "振る",
    applyRerollName: "全部振る",
    applyScore: "記入",
    applyScoreName: (category) => `${category}に記入`,
    sheet: "スコアシート",
    rules: "ルール",
    official: "公式",
    strict: "厳格",
    variantHint: "厳格: 5つ同じ目はフルハウスになりません。",
    subtotal: "小計",
    bonus: "ボーナス",
    total: "合計",
    bonusNeed: (n) => `あと${n}点で+35`,
    emptyCell: "–",
    preview: (points) => `→ ${points}`,
    previewName: (points) => `この目なら${points}点`,
    actions: "操作",
    share: "共有",
    newGame: "新しいゲーム",
    confirmNew: "スコアシートを消して新しいゲームを始めますか?",
    confirmYes: "消して始める",
    cancel: "キャンセル",
    copied: "リンクをコピーしました。",
    shared: "共有しました。",
    copyFailed: "下のリンクをコピーしてください。",
    linkLabel: "この局面へのリンク",
    keys: "キー: 1〜6 でサイコロを追加、Backspace で消す、R で何投目かを切り替え。",
    variantCleared: (names) => `${names}を消しました (このルールではありえない得点)。`,
  },
};

let language = "en";
const t = (key, ...args) => {
  const text = TEXTS[language][key];
  return typeof text === "function" ? text(...args) : text;
};

// Small helpers ------------------------------------------------------------------------------

const $ = (selector) => document.querySelector(selector);

/** A new element: `attrs` become attributes (`text`: textContent); children are nodes or text. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

// Pip positions on a 3 × 3 grid, 1–9 row by row.
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

/** A die drawn with pips (decorative: the control or text around it carries the name). */
function drawDie(face, size = "") {
  const die = el("span", { class: `die ${size}`.trim(), "aria-hidden": "true", "data-face": face });
  for (const p of PIPS[face]) die.append(el("span", { class: `pip p${p}` }));
  return die;
}

const formatExpected = (x) => x.toFixed(2);
const formatLoss = (x) => `${MINUS}${x.toFixed(2)}`;
const sortedKey = (dice) => [...dice].sort((a, b) => a - b).join("");

// Rules (from rules.json, written by the site build from yacht.rules) ------------------------

let rules = null;

const categoryName = (c) => rules.categories[language][c];
const possible = (variant, c) => rules.variants[variant].possible[c];
/** Points the five dice score in category c (raw, as written on the sheet). */
const pointsOf = (dice, c, variant) => rules.variants[variant].points[sortedKey(dice)][c];

function sheetTotals(sheet) {
  const upper = sheet.slice(0, rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const lower = sheet.slice(rules.upper).reduce((sum, v) => sum + (v ?? 0), 0);
  const bonus = upper >= rules.bonus.threshold ? rules.bonus.points : 0;
  const upperFull = sheet.slice(0, rules.upper).every((v) => v !== null);
  return { upper, bonus, upperFull, total: upper + lower + bonus };
}

// The position and the URL -------------------------------------------------------------------

/** The position being entered: the names are those of yacht.position.Position. */
const state = { sheet: [], dice: [], roll: 0, variant: null };

/** The query of the position, as yacht.position.format_query writes it.
 * Dice still being entered (fewer than five) are not part of the position: r=0 then. */
function formatQuery({ sheet, dice, roll, variant }) {
  const parts = [`s=${sheet.map((v) => v ?? "").join(",")}`];
  const complete = dice.length === N_DICE;
  if (complete) parts.push(`d=${dice.join("")}`);
  parts.push(`r=${complete ? roll : 0}`);
  if (variant !== rules.default_variant) parts.push(`v=${variant}`);
  return parts.join("&");
}

/** A position from a query, taking what is valid and leaving the rest empty.
 * Only for showing something at once: Python decides whether a link is valid. */
function readQuery(query) {
  const params = new URLSearchParams(query);
  const variant = params.get("v") in rules.variants ? params.get("v") : rules.default_variant;
  const fields = (params.get("s") ?? "").split(",");
  const sheet = rules.categories.en.map((_, c) => {
    const text = fields.length === rules.categories.en.length ? fields[c] : "";
    const value = /^[0-9]{1,3}$/.test(text) ? Number(text) : null;
    return value !== null && possible(variant, c).includes(value) ? value : null;
  });
  const d = params.get("d") ?? "";
  const dice = /^[1-6]{5}$/.test(d) ? [...d].map(Number) : [];
  const r = params.get("r") ?? "0";
  const roll = /^[0-3]$/.test(r) && dice.length === N_DICE ? Number(r) : 0;
  return { sheet, dice, roll, variant };
}

function writeURL() {
  history.replaceState(null, "", `${location.pathname}?${formatQuery(state)}`);
}

// The worker -----------------------------------------------------------------------------------

/** Messages to the worker: each request has an id; its reply settles the request's promise. */
class Advisor {
  constructor(onProgress) {
    this.pending = new Map();
    this.nextId = 1;
    this.worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    this.worker.onmessage = ({ data }) => {
      if (data.type === "progress") return onProgress(data);
      const request = this.pending.get(data.id);
      if (!request) return;
      this.pending.delete(data.id);
      if ("error" in data) request.reject(data.error);
      else request.resolve(data.result);
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || "worker.js or pyodide/pyodide.mjs could not be loaded";
      this.failAll({ kind: "load", step: "runtime", message });
    };
  }

  call(action, args = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, action, args });
    });
  }

  failAll(error) {
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
  }

  terminate() {
    this.worker.terminate();
    this.failAll({ kind: "cancelled", message: "stopped" });
  }
}

let advisor = null;
let ready = false;
/** step -> {state, variant}: what the loading list shows. */
let steps = {};
let loadError = null;

function startAdvisor() {
  steps = {};
  loadError = null;
  ready = false;
  setPageState("loading");
  advisor = new Advisor((message) => {
    steps[message.step] = { state: message.state, variant: message.variant };
    performance.mark(`yacht:${message.step}:${message.state}`); // for the benchmark and devtools
    renderLoading();
  });
  // The table to load first: the link's variant, or the one entered (the worker knows the default).
  const variant = state.variant ?? new URLSearchParams(location.search).get("v");
  const current = advisor;
  advisor.call("start", { variant }).then(
    () => {
      if (current !== advisor) return;
      ready = true;
      setPageState("ready");
      renderLoading();
      requestAdvice();
    },
    (error) => {
      if (current !== advisor || error.kind === "cancelled") return;
      failLoading(error);
    },
  );
}

function failLoading(error) {
  loadError = error;
  ready = false;
  setPageState("error");
  renderLoading();
  renderAdvice();
}

function setPageState(value) {
  document.documentElement.dataset.state = value;
}

// Advice ---------------------------------------------------------------------------------------

/** Bumped on every change of the input: a reply for an older generation is not shown. */
let generation = 0;
/** The link's raw query while the page still shows it unchanged (Python checks it). */
let link = null;
/** What the advice area shows: {query, result} or {query, error}. */
let shown = null;
let wanted = null;
let busy = false;
let firstAdvice = true;

function requestAdvice() {
  wanted = { query: link ?? formatQuery(state), generation, link: link !== null };
  pump();
}

/** One request at a time; while one runs, only the latest wish waits. */
async function pump() {
  if (busy || !ready || wanted === null) return;
  const request = wanted;
  wanted = null;
  busy = true;
  const current = advisor;
  try {
    const result = await advisor.call("advise", { query: request.query });
    if (request.generation === generation) showAdvice(request, result);
  } catch (error) {
    if (error.kind === "load" && current === advisor) failLoading(error);
    else if (request.generation === generation && error.kind !== "cancelled") {
      shown = { query: request.query, error, link: request.link };
      renderAdvice();
    }
  } finally {
    busy = false;
  }
  pump();
}

function showAdvice(request, result) {
  if (request.link) {
    // The link was valid: show exactly the position Python read, under its canonical query.
    const variant = state.variant;
    Object.assign(state, readQuery(result.query));
    if (state.variant !== variant) fillSheetChoices();
    link = null;
    writeURL();
    renderInput();
  }
  shown = { query: result.query, result };
  renderAdvice();
  if (firstAdvice) {
    firstAdvice = false;
    performance.mark("yacht:first-advice");
  }
}

// Input changes ------------------------------------------------------------------------------

/** Apply a change of the position; the URL, the page and the advice follow. */
function change(mutate) {
  mutate(state);
  link = null;
  generation++;
  $("#note").textContent = "";
  writeURL();
  renderInput();
  markStale();
  requestAdvice();
}

function addDie(face) {
  change((s) => {
    if (s.dice.length === N_DICE) s.dice = [];
    s.dice.push(face);
    if (s.roll === 0) s.roll = 1;
  });
}

function removeDie(index) {
  change((s) => s.dice.splice(index, 1));
}

function cycleRoll() {
  change((s) => {
    s.roll = (s.roll % 3) + 1;
  });
}

/** The kept dice in the order they were entered. */
function keptInOrder(dice, keep) {
  const left = [...keep];
  return dice.filter((d) => {
    const i = left.indexOf(d);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

function applyOption(option) {
  if (option.category !== undefined) {
    // Score now: write the points on the sheet and start the next turn.
    change((s) => {
      s.sheet[option.category] = pointsOf(s.dice, option.category, s.variant);
      s.dice = [];
      s.roll = 0;
    });
  } else {
    change((s) => {
      s.dice = keptInOrder(s.dice, option.keep);
      s.roll = Math.min(3, s.roll + 1);
    });
  }
  $("#keypad button")?.focus();
}

function setVariant(variant) {
  const cleared = [];
  change((s) => {
    s.variant = variant;
    s.sheet.forEach((v, c) => {
      if (v !== null && !possible(variant, c).includes(v)) {
        s.sheet[c] = null;
        cleared.push(c);
      }
    });
    fillSheetChoices(); // the scores the new variant allows
  });
  if (cleared.length) $("#note").textContent = t("variantCleared", cleared.map(categoryName).join(", "));
}

function newGame() {
  change((s) => {
    s.sheet = s.sheet.map(() => null);
    s.dice = [];
    s.roll = 0;
  });
  $("#confirm-new").hidden = true;
}

async function share() {
  const url = location.href;
  const note = $("#note");
  $("#link-box").hidden = true;
  try {
    if (navigator.share) {
      await navigator.share({ title: document.title, url });
      note.textContent = t("shared");
      return;
    }
    await navigator.clipboard.writeText(url);
    note.textContent = t("copied");
  } catch (error) {
    if (error?.name === "AbortError") return; // the user closed the share sheet
    note.textContent = t("copyFailed");
    const box = $("#link");
    box.value = url;
    $("#link-box").hidden = false;
    box.select();
  }
}

// Rendering ------------------------------------------------------------------------------------

function renderStatic() {
  document.documentElement.lang = language;
  document.title = t("title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === language));
  }
  for (const button of document.querySelectorAll("#keypad button")) {
    button.setAttribute("aria-label", t("addDie", button.dataset.face));
  }
}

/** The sheet's rows: one select per category (built once). */
function buildSheet() {
  const bodies = [$("#upper"), $("#lower")];
  rules.categories.en.forEach((_, c) => {
    const select = el("select", { id: `category-${c}`, "data-category": c });
    select.addEventListener("change", () => {
      change((s) => {
        s.sheet[c] = select.value === "" ? null : Number(select.value);
      });
    });
    const row = el(
      "tr",
      { "data-category": c },
      el("th", { scope: "row" }, el("label", { for: `category-${c}`, class: "category-name" })),
      el("td", { class: "cell" }, select),
      el("td", { class: "preview" }),
    );
    bodies[c < rules.upper ? 0 : 1].append(row);
  });
  fillSheetChoices();
}

/** Each select offers the empty cell and the scores its category can take under the variant. */
function fillSheetChoices() {
  for (const select of document.querySelectorAll("select[data-category]")) {
    const c = Number(select.dataset.category);
    select.replaceChildren(
      el("option", { value: "", text: t("emptyCell") }),
      ...possible(state.variant, c).map((v) => el("option", { value: v, text: String(v) })),
    );
  }
}

function renderInput() {
  // Roll and variant.
  for (const radio of document.querySelectorAll("input[name=roll]")) radio.checked = Number(radio.value) === state.roll;
  for (const radio of document.querySelectorAll("input[name=variant]")) radio.checked = radio.value === state.variant;

  // Dice: the entered ones (tap to remove), then empty places.
  const slots = state.dice.map((face, i) => {
    const button = el("button", { type: "button", class: "slot", "aria-label": t("removeDie", i + 1, face) });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => removeDie(i));
    return button;
  });
  while (slots.length < N_DICE) slots.push(el("span", { class: "slot empty", "aria-hidden": "true" }));
  $("#slots").replaceChildren(...slots);
  const missing = N_DICE - state.dice.length;
  $("#dice-hint").textContent =
    state.dice.length === 0 ? t("diceHintEmpty") : missing ? t("diceHintMore", missing) : t("diceHintFull");
  $("#backspace").disabled = state.dice.length === 0;
  $("#clear-dice").disabled = state.dice.length === 0;

  // Sheet: values, what the dice would score in each empty cell, the totals.
  const complete = state.dice.length === N_DICE;
  for (const row of document.querySelectorAll("tr[data-category]")) {
    const c = Number(row.dataset.category);
    const value = state.sheet[c];
    row.querySelector("label").textContent = categoryName(c);
    const select = row.querySelector("select");
    select.value = value === null ? "" : String(value);
    select.options[0].textContent = t("emptyCell");
    row.classList.toggle("filled", value !== null);
    const preview = row.querySelector(".preview");
    if (value === null && complete) {
      const points = pointsOf(state.dice, c, state.variant);
      preview.replaceChildren(el("span", { "aria-hidden": "true", text: t("preview", points) }));
      preview.append(el("span", { class: "visually-hidden", text: t("previewName", points) }));
    } else {
      preview.replaceChildren();
    }
  }
  const totals = sheetTotals(state.sheet);
  $("#subtotal").textContent = `${totals.upper} / ${rules.bonus.threshold}`;
  const need = rules.bonus.threshold - totals.upper;
  $("#bonus").textContent =
    totals.bonus > 0 ? `+${totals.bonus}` : totals.upperFull ? "0" : t("bonusNeed", need);
  $("#total").textContent = String(totals.total);
}

function renderLoading() {
  const box = $("#loading");
  box.hidden = ready;
  const items = ["runtime", "numpy", "package", "table"].map((step) => {
    const info = steps[step];
    const name = step === "table" && info?.variant ? `${t("steps").table} (${t(info.variant)})` : t("steps")[step];
    const status = info ? t("stepStates")[info.state] : "";
    return el("li", { class: `step ${info?.state ?? "waiting"}`, text: status ? `${name}: ${status}` : name });
  });
  $("#steps").replaceChildren(...items);
}

function markStale() {
  $("#options").setAttribute("aria-busy", "true");
  for (const button of document.querySelectorAll("#options button")) button.disabled = true;
}

function renderAdvice() {
  const errorBox = $("#error-box");
  const errorText = $("[data-testid=error]");
  const summary = $("#summary");
  const list = $("#options");
  list.removeAttribute("aria-busy");

  if (loadError) {
    const stepName = t("steps")[loadError.step] ?? loadError.step;
    errorText.textContent = t("loadFailed", stepName, loadError.message);
    errorBox.hidden = false;
    $("#retry").hidden = false;
    summary.textContent = "";
    list.replaceChildren();
    list.removeAttribute("data-query");
    return;
  }
  $("#retry").hidden = true;
  if (shown?.error) {
    const { error } = shown;
    errorText.textContent =
      error.kind === "position"
        ? shown.link
          ? t("linkError", error.message)
          : error.message
        : t("internalError", error.message);
    errorBox.hidden = false;
    summary.textContent = "";
    list.replaceChildren();
    list.setAttribute("data-query", shown.query);
    return;
  }
  errorBox.hidden = true;
  errorText.textContent = "";
  delete summary.dataset.expected;
  if (!shown) {
    summary.textContent = ready ? "" : t("waiting");
    list.replaceChildren();
    return;
  }

  const { result } = shown;
  const expected = formatExpected(result.expected);
  summary.dataset.expected = String(result.expected);
  if (result.over) summary.textContent = t("over", result.score);
  else if (result.roll === 0 && state.dice.length > 0 && state.dice.length < N_DICE) {
    summary.textContent = t("needDice", N_DICE - state.dice.length, expected);
  } else if (result.roll === 0) summary.textContent = t("beforeRoll", expected, result.score);
  else summary.textContent = t("bestPlay", expected, result.score);

  const dice = readQuery(result.query).dice;
  const variant = result.variant;
  list.replaceChildren(...result.options.map((option, i) => renderOption(option, i + 1, dice, variant)));
  list.setAttribute("data-query", result.query);
  for (const row of document.querySelectorAll("tr[data-category]")) {
    const best = result.options[0]?.category;
    row.classList.toggle("best", best !== undefined && Number(row.dataset.category) === best);
  }
}

/** One option: what to do, its expected final score and loss, and a button that does it. */
function renderOption(option, rank, dice, variant) {
  const item = el("li", {
    class: rank === 1 ? "option best" : "option",
    "data-testid": "option",
    "data-rank": rank,
    "data-expected": String(option.expected),
    "data-keep": option.keep ? option.keep.join("") : null,
    "data-category": option.keep ? null : option.category,
  });
  const what = el("span", { class: "what" });
  let label;
  let applyText;
  let applyName;
  if (option.keep) {
    const keepText = option.keep.join(" ");
    const kept = el("span", { class: "kept" }, ...option.keep.map((face) => drawDie(face, "small")));
    if (option.category !== undefined) {
      label = t("stop", categoryName(option.category), pointsText(option, dice, variant));
      applyText = t("applyScore");
      applyName = t("applyScoreName", categoryName(option.category));
    } else if (option.keep.length === 0) {
      label = t("keepNone");
      applyText = t("applyReroll");
      applyName = t("applyRerollName");
    } else {
      label = t("keep", keepText);
      applyText = t("applyKeep");
      applyName = t("applyKeepName", keepText);
    }
    if (option.keep.length) what.append(kept);
    // The dice are drawn; spell them out for screen readers, and name the category when stopping.
    const text = el("span", { class: option.category !== undefined || !option.keep.length ? "text" : "text visually-hidden" });
    text.textContent = label;
    what.append(text);
  } else {
    label = t("scoreAs", categoryName(option.category), pointsText(option, dice, variant));
    applyText = t("applyScore");
    applyName = t("applyScoreName", categoryName(option.category));
    what.append(el("span", { class: "text", text: label }));
  }
  const figures = el(
    "span",
    { class: "figures" },
    el("span", { class: "visually-hidden", text: `${t("expectedLabel")} ` }),
    el("span", { class: "expected", text: formatExpected(option.expected) }),
    el("span", { class: "visually-hidden", text: ` ${t("lossLabel")} ` }),
    el("span", { class: "loss", text: rank === 1 ? t("best") : formatLoss(option.loss) }),
  );
  const apply = el("button", { type: "button", class: "apply", "aria-label": applyName, text: applyText });
  apply.addEventListener("click", () => applyOption(option));
  item.append(el("span", { class: "rank", text: String(rank) }), what, figures, apply);
  return item;
}

/** "23", or "9 + 35 bonus" when scoring lifts the upper total to the bonus. */
function pointsText(option, dice, variant) {
  const raw = pointsOf(dice, option.category, variant);
  return option.points > raw ? t("bonusPoints", raw) : String(option.points);
}

function render() {
  renderStatic();
  renderInput();
  renderLoading();
  renderAdvice();
}

// Start ----------------------------------------------------------------------------------------

function initialLanguage() {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  if (saved in TEXTS) return saved;
  const preferred = navigator.languages?.[0] ?? navigator.language ?? "en";
  return preferred.toLowerCase().startsWith("ja") ? "ja" : "en";
}

function bindControls() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      language = button.dataset.lang;
      localStorage.setItem(LANGUAGE_KEY, language);
      render();
    });
  }
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.addEventListener("change", () => change((s) => (s.roll = Number(radio.value))));
  }
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    radio.addEventListener("change", () => setVariant(radio.value));
  }
  const keypad = $("#keypad");
  for (let face = 1; face <= 6; face++) {
    const button = el("button", { type: "button", class: "face", "data-face": face });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => addDie(face));
    keypad.append(button);
  }
  $("#backspace").addEventListener("click", () => removeDie(state.dice.length - 1));
  $("#clear-dice").addEventListener("click", () => change((s) => (s.dice = [])));
  $("#retry").addEventListener("click", () => {
    if (rules === null) return location.reload(); // the page itself did not load
    advisor?.terminate();
    startAdvisor();
    renderAdvice();
    requestAdvice();
  });
  $("#share").addEventListener("click", share);
  $("#new-game").addEventListener("click", () => {
    $("#confirm-new").hidden = false;
    $("#confirm-no").focus();
  });
  $("#confirm-no").addEventListener("click", () => {
    $("#confirm-new").hidden = true;
    $("#new-game").focus();
  });
  $("#confirm-yes").addEventListener("click", newGame);

  // Keyboard: digits add dice, Backspace deletes the last, Delete clears, R cycles the roll.
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("select, input[type=text], textarea")) return;
    if (/^[1-6]$/.test(event.key)) addDie(Number(event.key));
    else if (event.key === "Backspace" && state.dice.length) removeDie(state.dice.length - 1);
    else if (event.key === "Delete" && state.dice.length) change((s) => (s.dice = []));
    else if (event.key === "r" || event.key === "R") cycleRoll();
    else return;
    event.preventDefault();
  });
}

async function main() {
  language = initialLanguage();
  startAdvisor(); // the runtime loads while the rest of the page starts
  bindControls();
  renderStatic();
  renderLoading();
  try {
    const response = await fetch("rules.json");
    if (!response.ok) throw new Error(`rules.json: HTTP ${response.status}`);
    rules = await response.json();
  } catch (error) {
    advisor.terminate();
    loadError = { step: "page", message: error.message };
    setPageState("error");
    renderAdvice();
    return;
  }
  if (location.search.length > 1) link = location.search.slice(1);
  Object.assign(state, readQuery(location.search));
  buildSheet();
  render();
  requestAdvice();
}

main();
