// The advisor page: a position and its advice, a game played along and its review.
//
// The page is usable at once: it reads rules.json (category names, the scores each category
// can take, the points of every roll) and lets a position be entered while the worker
// (worker.js: Pyodide + NumPy + our package) loads. Advice follows every change of the input.
//
// Everything lives in the URL query, rewritten with history.replaceState on every change:
// - a position in the CLI's format (yacht.position: s, d, r, v), entered freely;
// - a game record (yacht.game: s, r, v, h) from the moment an option is acted on: a keep
//   asks for the next dice (typed, or rolled by the page), a category writes its score and
//   starts the next turn. Undo takes back the record's last step (the position mode again
//   when none is left); redo re-applies what was undone. What a record cannot hold (a keep
//   waiting for its dice, dice half entered, the steps to redo) lives in history.state, so a
//   reload loses nothing.
// A link is checked by Python, so a bad one shows the CLI's message. Text reaches the page
// only through textContent and attributes, never as HTML.
//
// The service worker (sw.js) is registered once the advisor has loaded: it precaches the
// whole site so the page works offline after one visit.

const N_DICE = 5;
const MAX_ROLLS = 3;
const MINUS = "\u2212";
const LANGUAGE_KEY = "yacht.language";
const CATEGORY_LETTERS = "abcdefghijkl";
const SVG_NS = "http://www.w3.org/2000/svg";

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
    keptDie: (face) => `${face}, kept`,
    backspace: "Delete last",
    clearDice: "Clear dice",
    rollForMe: "Roll for me",
    diceHintEmpty: "Tap the faces you rolled",
    diceHintMore: (n) => `${n} more to enter`,
    diceHintFull: "Tap a die to remove it",
    diceHintKept: (n) => `Kept dice stay; ${n} more to enter`,
    diceHintChoice: "Tap a new die to correct it",
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
    details: "Details",
    loadFailed: (step, message) => `Could not load the advisor (${step}): ${message}`,
    linkError: (message) => `This link is not a valid position. ${message}`,
    gameLinkError: (message) => `This link is not a valid game. ${message}`,
    internalError: (message) => `The advisor failed: ${message}`,
    waiting: "Advice appears here once the advisor has loaded.",
    beforeRoll: (expected, score) => `Before rolling: expected final score ${expected} (sheet now ${score}).`,
    needDice: (n, expected) => `Enter ${n} more ${n === 1 ? "die" : "dice"} for advice. Expected final score ${expected}.`,
    bestPlay: (expected, score) => `Expected final score with the best play: ${expected} (sheet now ${score}).`,
    over: (score) => `Game over. Final score: ${score}.`,
    enterTurn: (turn) => `Turn ${turn}: enter the five dice you rolled, or let the page roll them.`,
    enterKept: (kept, n) => `Kept ${kept}: enter the ${n} ${n === 1 ? "die" : "dice"} you rolled again, or let the page roll them.`,
    enterRerollAll: "Rerolling all: enter the five dice you rolled, or let the page roll them.",
    expectedNow: (expected) => `Expected final score ${expected}.`,
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
    scoreHere: (points, category) => `Score ${points} in ${category}`,
    sheet: "Scoresheet",
    rules: "Rules",
    official: "Official",
    strict: "Strict",
    variantHint: "Strict: five of a kind is not a Full House.",
    sheetLocked: "The sheet and the rules follow the game: use Undo to change them.",
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
    linkLabelGame: "Link to this game",
    keys: "Keys: 1–6 add a die, Backspace deletes it, R changes the roll, Ctrl+Z undoes, Ctrl+Shift+Z redoes.",
    variantCleared: (names) => `Cleared ${names}: not a possible score under these rules.`,
    gameGroup: "Game",
    undo: "Undo",
    redo: "Redo",
    review: "Review",
    playHint: "Act on an option to play along: every roll, keep and score goes into the link.",
    playing: (turn, roll) => `Playing along: turn ${turn}, roll ${roll}.`,
    playingOver: "Playing along: the game is over.",
    backToGame: "Back to game",
    reviewHeading: "Review",
    closeReview: "Close review",
    reviewLoading: "Grading every decision…",
    reviewWaiting: "The review appears once the advisor has loaded.",
    finalScore: "Final score",
    inProgress: "Expected (in progress)",
    totalLoss: "Total loss",
    meanLoss: (n) => `Mean loss of ${n} ${n === 1 ? "decision" : "decisions"}`,
    luckSkill: (luck, skill) => `Dice: ${luck} · Decisions: ${skill}`,
    costliest: "Costliest decisions",
    noLoss: "Every decision was the best one.",
    everyDecision: "Every decision",
    where: (turn, roll) => `Turn ${turn} · roll ${roll}`,
    bestWas: (option) => `best: ${option}`,
    chose: (option) => `Chose ${option}`,
    decisionName: (turn, roll, dice, chosen, loss) =>
      `Turn ${turn}, roll ${roll}, dice ${dice}: chose ${chosen}, ${loss}. Open this position.`,
    lossName: (loss) => `loss ${loss}`,
    bestName: "the best choice",
    chartTitle: "Expected final score, step by step",
    chartDesc: (start, last, luck, skill) =>
      `From ${start} at the start to ${last} now: the dice ${luck}, the decisions ${skill}.`,
    legendExpected: "Expected final score",
    legendDice: "With every decision the best (the dice alone)",
    legendCost: "What the decisions cost",
    axisTurn: "turn",
    offlineReady: "Ready to work offline.",
    updateAvailable: "Update available.",
    reload: "Reload",
    dismiss: "Dismiss",
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
    keptDie: (face) => `${face} (残したサイコロ)`,
    backspace: "1つ消す",
    clearDice: "サイコロを消す",
    rollForMe: "代わりに振る",
    diceHintEmpty: "出た目をタップ",
    diceHintMore: (n) => `あと${n}個`,
    diceHintFull: "タップで削除",
    diceHintKept: (n) => `残したサイコロはそのまま。あと${n}個`,
    diceHintChoice: "新しいサイコロはタップで修正",
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
    details: "詳細",
    loadFailed: (step, message) => `アドバイザーを読み込めませんでした (${step}): ${message}`,
    linkError: (message) => `このリンクの局面は正しくありません。${message}`,
    gameLinkError: (message) => `このリンクのゲーム記録は正しくありません。${message}`,
    internalError: (message) => `アドバイザーでエラーが起きました: ${message}`,
    waiting: "読み込みが終わると、ここにアドバイスが出ます。",
    beforeRoll: (expected, score) => `振る前: 最終得点の期待値 ${expected} (現在 ${score}点)`,
    needDice: (n, expected) => `あと${n}個入力するとアドバイスが出ます。最終得点の期待値 ${expected}`,
    bestPlay: (expected, score) => `最善手での最終得点の期待値: ${expected} (現在 ${score}点)`,
    over: (score) => `ゲーム終了。最終得点: ${score}点`,
    enterTurn: (turn) => `${turn}ターン目: 出た5個の目を入力するか、代わりに振らせてください。`,
    enterKept: (kept, n) => `${kept} を残しました: 振り直した${n}個の目を入力するか、代わりに振らせてください。`,
    enterRerollAll: "全部振り直し: 出た5個の目を入力するか、代わりに振らせてください。",
    expectedNow: (expected) => `最終得点の期待値 ${expected}`,
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
    scoreHere: (points, category) => `${category}に${points}点を記入`,
    sheet: "スコアシート",
    rules: "ルール",
    official: "公式",
    strict: "厳格",
    variantHint: "厳格: 5つ同じ目はフルハウスになりません。",
    sheetLocked: "スコアシートとルールはゲームの記録どおりです。変えるには「元に戻す」を使います。",
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
    linkLabelGame: "このゲームへのリンク",
    keys: "キー: 1〜6 でサイコロを追加、Backspace で消す、R で何投目かを切り替え、Ctrl+Z で元に戻す、Ctrl+Shift+Z でやり直す。",
    variantCleared: (names) => `${names}を消しました (このルールではありえない得点)。`,
    gameGroup: "ゲーム",
    undo: "元に戻す",
    redo: "やり直す",
    review: "振り返り",
    playHint: "選択肢を選ぶとゲームの記録が始まります。振った目・残した目・記入はすべてリンクに入ります。",
    playing: (turn, roll) => `記録中: ${turn}ターン目、${roll}投目`,
    playingOver: "記録中: ゲーム終了",
    backToGame: "ゲームに戻る",
    reviewHeading: "振り返り",
    closeReview: "振り返りを閉じる",
    reviewLoading: "すべての判断を採点中…",
    reviewWaiting: "読み込みが終わると振り返りが出ます。",
    finalScore: "最終得点",
    inProgress: "期待値 (ゲーム途中)",
    totalLoss: "損失の合計",
    meanLoss: (n) => `${n}回の判断の平均損失`,
    luckSkill: (luck, skill) => `サイコロ: ${luck} · 判断: ${skill}`,
    costliest: "損失の大きかった判断",
    noLoss: "すべて最善の判断でした。",
    everyDecision: "すべての判断",
    where: (turn, roll) => `${turn}ターン目 · ${roll}投目`,
    bestWas: (option) => `最善: ${option}`,
    chose: (option) => `選択: ${option}`,
    decisionName: (turn, roll, dice, chosen, loss) =>
      `${turn}ターン目、${roll}投目、目 ${dice}: ${chosen}を選択、${loss}。この局面を開く。`,
    lossName: (loss) => `損失 ${loss}`,
    bestName: "最善の判断",
    chartTitle: "最終得点の期待値の推移",
    chartDesc: (start, last, luck, skill) => `開始時 ${start} から現在 ${last}: サイコロ ${luck}、判断 ${skill}`,
    legendExpected: "最終得点の期待値",
    legendDice: "すべて最善に判断した場合 (サイコロの影響のみ)",
    legendCost: "判断による損失",
    axisTurn: "ターン",
    offlineReady: "オフラインで使えるようになりました。",
    updateAvailable: "新しいバージョンがあります。",
    reload: "再読み込み",
    dismiss: "閉じる",
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
  setAttributes(node, attrs);
  node.append(...children);
  return node;
}

/** A new SVG element, as `el`. */
function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  node.append(...children);
  return node;
}

function setAttributes(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
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
/** A change of the expected score with its sign: "+6.59", "−12.15", "0.00". */
const formatSigned = (x) => (Math.abs(x) < 0.005 ? "0.00" : x > 0 ? `+${x.toFixed(2)}` : `${MINUS}${(-x).toFixed(2)}`);
const ascending = (dice) => [...dice].sort((a, b) => a - b);
const sortedKey = (dice) => ascending(dice).join("");

/** Whether the multiset `part` is contained in `dice`. */
function contains(dice, part) {
  const rest = [...dice];
  return part.every((d) => {
    const i = rest.indexOf(d);
    if (i < 0) return false;
    rest.splice(i, 1);
    return true;
  });
}

/** For each die, whether it is one of the kept ones (each kept die matched once, first first). */
function keptMask(dice, keep) {
  const left = [...keep];
  return dice.map((d) => {
    const i = left.indexOf(d);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/** The kept dice in the order they were entered. */
function keptInOrder(dice, keep) {
  const mask = keptMask(dice, keep);
  return dice.filter((_, i) => mask[i]);
}

/** A uniformly random face 1–6 from the browser's cryptographic generator. */
function randomFace() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte);
  while (byte[0] >= 252); // 252 = 42 × 6: no face is favoured
  return (byte[0] % 6) + 1;
}

// Rules (from rules.json, written by the site build from yacht.rules) ------------------------

let rules = null;

const nCategories = () => rules.categories.en.length;
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

// The position -------------------------------------------------------------------------------

/** The position shown: the names are those of yacht.position.Position. In a game it is the
 * game's current position (the dice being entered included), derived by sync(). */
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

/** The sheet of an `s` value: twelve fields, each empty or a score the category can take. */
function readSheet(text, variant, lenient) {
  const fields = (text ?? "").split(",");
  const ok = fields.length === nCategories();
  if (!ok && !lenient) return null;
  const sheet = rules.categories.en.map((_, c) => {
    const field = ok ? fields[c] : "";
    const value = /^[0-9]{1,3}$/.test(field) ? Number(field) : null;
    return value !== null && possible(variant, c).includes(value) ? value : field === "" ? null : undefined;
  });
  if (!lenient && sheet.includes(undefined)) return null;
  return sheet.map((v) => v ?? null);
}

/** A position from a query, taking what is valid and leaving the rest empty.
 * Only for showing something at once: Python decides whether a link is valid. */
function readQuery(query) {
  const params = new URLSearchParams(query);
  const variant = params.get("v") in rules.variants ? params.get("v") : rules.default_variant;
  const sheet = readSheet(params.get("s"), variant, true);
  const d = params.get("d") ?? "";
  const dice = /^[1-6]{5}$/.test(d) ? [...d].map(Number) : [];
  const r = params.get("r") ?? "0";
  const roll = /^[0-3]$/.test(r) && dice.length === N_DICE ? Number(r) : 0;
  return { sheet, dice, roll, variant };
}

// The game record ------------------------------------------------------------------------------
//
// game = {sheet, firstRoll, variant, turns, keep}: as yacht.game.Game (the start sheet, the roll
// of the first dice, the rules, the turns {rolls, keeps, category}), plus `keep`: the dice kept
// for a reroll whose dice are not entered yet (null when none). `entry`: the new dice entered
// so far for that reroll, or for a new turn's first roll. null: no game, a position is entered.

let game = null;
let entry = [];
/** What sync() derived from the game: {phase: "dice"|"choice"|"over", turn, roll, dice, locked}. */
let view = null;

const isGameQuery = (query) => new URLSearchParams(query).has("h");

const formatDice = (dice) => dice.join("");

function formatTurn(turn) {
  const pieces = [formatDice(turn.rolls[0])];
  turn.keeps.forEach((keep, i) => pieces.push(formatDice(keep), formatDice(turn.rolls[i + 1])));
  return pieces.join("-") + (turn.category === null ? "" : CATEGORY_LETTERS[turn.category]);
}

/** The canonical query of a game, as yacht.game.format_game writes it (the waiting keep is not part of it). */
function formatGame(g) {
  const parts = [];
  if (g.sheet.some((v) => v !== null)) parts.push(`s=${g.sheet.map((v) => v ?? "").join(",")}`);
  if (g.firstRoll !== 1) parts.push(`r=${g.firstRoll}`);
  if (g.variant !== rules.default_variant) parts.push(`v=${g.variant}`);
  parts.push(`h=${g.turns.map(formatTurn).join(".")}`);
  return parts.join("&");
}

const TURN_PATTERN = /^([1-6]{5})(?:-([1-6]{0,4})-([1-6]{5}))?(?:-([1-6]{0,4})-([1-6]{5}))?([a-l]?)$/;
const digits = (text) => [...text].map(Number);

/** A game from a query, or null when JavaScript cannot read it as a legal game. Only for showing
 * it at once and for building on the canonical queries Python returns: Python decides. */
function parseGame(query) {
  const params = new URLSearchParams(query);
  if (!params.has("h") || params.has("d")) return null;
  const variant = params.get("v") ?? rules.default_variant;
  if (!(variant in rules.variants)) return null;
  const sheet = params.has("s") ? readSheet(params.get("s"), variant, false) : Array(nCategories()).fill(null);
  const r = params.get("r") ?? "1";
  if (sheet === null || !/^[1-3]$/.test(r)) return null;
  const h = params.get("h");
  const turns = [];
  for (const part of h === "" ? [] : h.split(".")) {
    const m = TURN_PATTERN.exec(part);
    if (!m) return null;
    const rolls = [m[1], m[3], m[5]].filter((x) => x !== undefined).map(digits);
    const keeps = [m[2], m[4]].filter((x) => x !== undefined).map((k) => ascending(digits(k)));
    turns.push({ rolls, keeps, category: m[6] ? CATEGORY_LETTERS.indexOf(m[6]) : null });
  }
  const g = { sheet, firstRoll: Number(r), variant, turns, keep: null };
  return legalGame(g) ? g : null;
}

/** The checks of yacht.game.replay: kept dice in the dice before and after, a category used
 * once, no turn after the sheet is full, at most three rolls a turn, only the last turn open. */
function legalGame(g) {
  const sheet = [...g.sheet];
  return g.turns.every((turn, i) => {
    if (sheet.every((v) => v !== null)) return false;
    if (turn.category === null && i < g.turns.length - 1) return false;
    if (firstRollOf(g, i) + turn.rolls.length - 1 > MAX_ROLLS) return false;
    const keepsFit = turn.keeps.every((k, j) => contains(turn.rolls[j], k) && contains(turn.rolls[j + 1], k));
    if (!keepsFit) return false;
    if (turn.category === null) return true;
    if (sheet[turn.category] !== null) return false;
    sheet[turn.category] = pointsOf(turn.rolls.at(-1), turn.category, g.variant);
    return true;
  });
}

const firstRollOf = (g, i) => (i === 0 ? g.firstRoll : 1);

/** The number of decisions recorded: keeps and categories. */
const decisionCount = (g) => g.turns.reduce((n, turn) => n + turn.keeps.length + (turn.category === null ? 0 : 1), 0);

/** Whether `keep` can wait for its dice at the end of `g`: the last turn is open, below roll 3,
 * and its dice hold the keep. */
function keepFits(g, keep) {
  const last = g.turns.at(-1);
  if (!Array.isArray(keep) || !last || last.category !== null || keep.length >= N_DICE) return false;
  if (firstRollOf(g, g.turns.length - 1) + last.rolls.length - 1 >= MAX_ROLLS) return false;
  return keep.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) && contains(last.rolls.at(-1), keep);
}

/** Where the game stands (the sheet, the dice, the phase), from the record and the entry. */
function gameView() {
  const sheet = [...game.sheet];
  let dice = null;
  let roll = 0;
  game.turns.forEach((turn, i) => {
    dice = turn.rolls.at(-1);
    roll = firstRollOf(game, i) + turn.rolls.length - 1;
    if (turn.category !== null) {
      sheet[turn.category] = pointsOf(dice, turn.category, game.variant);
      dice = null;
      roll = 0;
    }
  });
  const filled = sheet.filter((v) => v !== null).length;
  const turn = Math.min(filled + 1, nCategories());
  if (filled === nCategories()) return { phase: "over", sheet, dice: [], locked: [], roll: 0, turn };
  if (dice && game.keep) {
    const kept = keptInOrder(dice, game.keep);
    const all = [...kept, ...entry];
    return { phase: "dice", sheet, dice: all, locked: all.map((_, i) => i < kept.length), roll: roll + 1, turn };
  }
  if (dice) {
    const last = game.turns.at(-1);
    return { phase: "choice", sheet, dice: [...dice], locked: keptMask(dice, last.keeps.at(-1) ?? []), roll, turn };
  }
  const first = game.turns.length === 0 ? game.firstRoll : 1;
  return { phase: "dice", sheet, dice: [...entry], locked: entry.map(() => false), roll: first, turn };
}

/** The position shown follows the game. */
function sync() {
  if (!game) {
    view = null;
    return;
  }
  view = gameView();
  Object.assign(state, { sheet: view.sheet, dice: view.dice, roll: view.roll, variant: game.variant });
}

/** The game that starts from the position shown (five dice after roll 1–3). */
function startGame() {
  game = {
    sheet: [...state.sheet],
    firstRoll: state.roll,
    variant: state.variant,
    turns: [{ rolls: [[...state.dice]], keeps: [], category: null }],
    keep: null,
  };
  entry = [];
}

/** Back to entering a position: the game's start with its first dice (or those being entered). */
function leaveGame() {
  const first = game.turns[0]?.rolls[0];
  Object.assign(state, {
    sheet: [...game.sheet],
    dice: first ? [...first] : [...entry],
    roll: game.firstRoll,
    variant: game.variant,
  });
  game = null;
  entry = [];
}

// The URL and history.state ----------------------------------------------------------------------

/** Steps undone, to redo (snapshots, the last undone last). */
let redoStack = [];
/** This history entry is a position opened from a review: "Back to game" goes back. */
let backToGame = false;
let reviewOpen = false;

const currentQuery = () => (game ? formatGame(game) : formatQuery(state));

/** What the URL cannot hold, kept with the history entry (it survives a reload). */
function historyState() {
  return { keep: game?.keep ?? null, entry: game ? [...entry] : [], redo: redoStack, back: backToGame, review: reviewOpen };
}

function writeURL(push = false) {
  const url = `${location.pathname}?${currentQuery()}`;
  if (push) history.pushState(historyState(), "", url);
  else history.replaceState(historyState(), "", url);
}

function snapshot() {
  return structuredClone({ game, entry, state });
}

function restore(saved) {
  game = saved.game;
  entry = saved.entry;
  Object.assign(state, saved.state);
  fillSheetChoices();
}

/** The page's input from the URL and history.state (at start, and on Back / Forward). */
function readLocation() {
  const query = location.search.slice(1);
  const saved = history.state ?? {};
  link = query.length ? query : null;
  redoStack = Array.isArray(saved.redo) ? saved.redo : [];
  backToGame = saved.back === true;
  game = isGameQuery(query) ? parseGame(query) : null;
  entry = [];
  if (game) {
    if (saved.keep && keepFits(game, saved.keep)) game.keep = ascending(saved.keep);
    restoreEntry(saved.entry);
  } else {
    Object.assign(state, readQuery(query));
  }
  reviewOpen = saved.review === true && game !== null;
  sync();
}

/** Dice entered before a reload, if they still fit what the game waits for. */
function restoreEntry(saved) {
  if (!Array.isArray(saved) || !saved.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)) return;
  entry = [...saved];
  const v = gameView();
  if (v.phase !== "dice" || v.dice.length >= N_DICE) entry = [];
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
      requestReview();
      registerServiceWorker();
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
/** What the advice area shows: {query, action, result} or {query, action, error, link}. */
let shown = null;
let wanted = null;
let busy = false;
let firstAdvice = true;

function requestAdvice() {
  const query = link ?? currentQuery();
  wanted = { query, generation, link: link !== null, action: isGameQuery(query) ? "game" : "advise" };
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
    const result = await advisor.call(request.action, { query: request.query });
    if (request.generation === generation) showAdvice(request, result);
  } catch (error) {
    if (error.kind === "load" && current === advisor) failLoading(error);
    else if (request.generation === generation && error.kind !== "cancelled") showError(request, error);
  } finally {
    busy = false;
  }
  pump();
}

function showAdvice(request, result) {
  if (request.link) {
    // The link was valid: show exactly what Python read, under its canonical query.
    const variant = state.variant;
    if (request.action === "game") {
      const parsed = parseGame(result.query);
      if (!parsed) return showError(request, { kind: "internal", message: `cannot follow ${result.query}` });
      const keep = game?.keep;
      const entered = game ? entry : [];
      game = parsed;
      if (keep && keepFits(game, keep)) game.keep = keep;
      restoreEntry(entered);
    } else {
      game = null;
      Object.assign(state, readQuery(result.query));
    }
    sync();
    if (state.variant !== variant) fillSheetChoices();
    link = null;
    writeURL();
    renderInput();
    requestReview();
  }
  shown = { query: result.query, action: request.action, result };
  renderAdvice();
  if (firstAdvice) {
    firstAdvice = false;
    performance.mark("yacht:first-advice");
  }
}

function showError(request, error) {
  if (request.link && request.action === "game" && game) {
    // Not a legal game: keep what can be read of its start (the sheet, the rules) as a position.
    game = null;
    entry = [];
    Object.assign(state, readQuery(request.query));
    sync();
    fillSheetChoices();
    renderInput();
  }
  shown = { query: request.query, action: request.action, error, link: request.link };
  renderAdvice();
}

// Input changes ------------------------------------------------------------------------------

/** Apply a change (of the position, or of the game); the URL, the page and the advice follow.
 * Any change but undo and redo forgets the steps undone. `push`: a new history entry. */
function change(mutate, { redo = [], push = false } = {}) {
  mutate(state);
  redoStack = redo;
  link = null;
  generation++;
  $("#note").textContent = "";
  $("#link-box").hidden = true;
  sync();
  writeURL(push);
  renderInput();
  if (shown?.result && shown.query === currentQuery()) renderAdvice(); // only the entry changed
  else {
    markStale();
    if (game && view.phase === "dice") renderAdvice(); // what to enter, at once
    requestAdvice();
  }
  requestReview();
}

function addDie(face) {
  if (game) {
    if (view.phase !== "dice") return;
    change(() => {
      entry.push(face);
      if (view.dice.length + 1 === N_DICE) commitRoll();
    });
    return;
  }
  change((s) => {
    if (s.dice.length === N_DICE) s.dice = [];
    s.dice.push(face);
    if (s.roll === 0) s.roll = 1;
  });
}

/** The entered dice are complete: they are the next roll of the record. */
function commitRoll() {
  const v = gameView();
  const dice = v.dice;
  if (game.keep) {
    const last = game.turns.at(-1);
    last.keeps.push(game.keep);
    last.rolls.push(dice);
    game.keep = null;
  } else {
    game.turns.push({ rolls: [dice], keeps: [], category: null });
  }
  entry = [];
}

/** Dice the page rolls: the missing ones, at random. */
function rollForMe() {
  const missing = N_DICE - (game ? view.dice.length : state.dice.length);
  if (missing <= 0 || (game && view.phase !== "dice")) return;
  const faces = Array.from({ length: missing }, randomFace);
  if (game) {
    change(() => {
      entry.push(...faces);
      commitRoll();
    });
  } else {
    change((s) => {
      s.dice.push(...faces);
      if (s.roll === 0) s.roll = 1;
    });
  }
  $("#keypad button")?.focus();
}

function removeDie(index) {
  if (!game) return change((s) => s.dice.splice(index, 1));
  if (view.locked[index]) return;
  if (view.phase === "dice") {
    return change(() => entry.splice(index - view.locked.filter(Boolean).length, 1));
  }
  // Correcting dice already recorded: the roll goes back to being entered, without that die.
  const rest = view.dice.filter((_, i) => !view.locked[i] && i !== index);
  change(() => reopenRoll(rest));
}

/** Take the current roll back out of the record; `rest` of its new dice stay entered. */
function reopenRoll(rest) {
  const last = game.turns.at(-1);
  last.rolls.pop();
  if (last.rolls.length === 0) game.turns.pop();
  else game.keep = last.keeps.pop();
  entry = [...rest];
  if (decisionCount(game) === 0 && !game.keep) leaveGame();
}

/** The last die that can be removed (a new one, not a kept one). */
function lastRemovable() {
  const locked = game ? view.locked : [];
  for (let i = state.dice.length - 1; i >= 0; i--) if (!locked[i]) return i;
  return -1;
}

function clearDice() {
  if (!game) return change((s) => (s.dice = []));
  if (view.phase === "dice") return change(() => (entry = []));
  if (view.phase === "choice" && view.locked.some((x) => !x)) change(() => reopenRoll([]));
}

function cycleRoll() {
  if (game) return;
  change((s) => {
    s.roll = (s.roll % 3) + 1;
  });
}

/** Act on an option (or a score on the sheet): the game moves on. */
function applyOption(option) {
  change(() => {
    if (!game) startGame();
    if (option.category !== undefined) scoreCategory(option.category);
    else {
      game.keep = ascending(option.keep);
      entry = [];
    }
  });
  $("#keypad button")?.focus();
}

function scoreCategory(c) {
  game.turns.at(-1).category = c;
  game.keep = null;
  entry = [];
}

/** Whether a score can be written on the sheet now (five dice after a roll, no choice made). */
function canScore() {
  if (game) return view.phase === "choice";
  return state.dice.length === N_DICE && state.roll >= 1;
}

const canUndo = () => game !== null && (game.keep !== null || decisionCount(game) > 0);

/** Take back the record's last step: a keep, a roll, a category. */
function undo() {
  if (!canUndo()) return;
  const redo = [...redoStack, snapshot()];
  change(
    () => {
      const last = game.turns.at(-1);
      if (game.keep) game.keep = null;
      else if (last.category !== null) last.category = null;
      else if (last.rolls.length > 1) {
        last.rolls.pop();
        game.keep = last.keeps.pop();
      } else game.turns.pop();
      entry = [];
      if (decisionCount(game) === 0 && !game.keep) leaveGame();
    },
    { redo },
  );
}

function redo() {
  if (!redoStack.length) return;
  const rest = redoStack.slice(0, -1);
  const next = redoStack.at(-1);
  change(() => restore(structuredClone(next)), { redo: rest });
}

function setVariant(variant) {
  if (game) return;
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

function setSheet(c, value) {
  if (game) return;
  change((s) => {
    s.sheet[c] = value;
  });
}

/** A new game. A game played along stays in the history: Back returns to it. */
function newGame() {
  const wasGame = game !== null;
  reviewOpen = false;
  change(
    (s) => {
      if (game) leaveGame();
      s.sheet = s.sheet.map(() => null);
      s.dice = [];
      s.roll = 0;
    },
    { push: wasGame },
  );
  $("#confirm-new").hidden = true;
  backToGame = false;
  writeURL();
  renderAll();
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

// Review ---------------------------------------------------------------------------------------

/** What the review panel shows: {query, result} or {query, error}. */
let reviewShown = null;
/** The query and language the review panel was drawn for (it is redrawn only when they change). */
let reviewDrawn = null;
let reviewWanted = null;
let reviewBusy = false;

function openReview() {
  if (!game || decisionCount(game) === 0) return;
  reviewOpen = true;
  writeURL();
  renderReview();
  requestReview();
  $("#review").scrollIntoView({ block: "start" });
  $("#review-heading").focus({ preventScroll: true });
}

function closeReview() {
  reviewOpen = false;
  writeURL();
  renderReview();
  $("#review-open").focus();
}

function requestReview() {
  if (!reviewOpen || !game || decisionCount(game) === 0) return;
  const query = formatGame(game);
  if (reviewShown?.query === query) return;
  reviewWanted = query;
  pumpReview();
}

async function pumpReview() {
  if (reviewBusy || !ready || reviewWanted === null) return;
  const query = reviewWanted;
  reviewWanted = null;
  reviewBusy = true;
  try {
    const result = await advisor.call("review", { query });
    reviewShown = { query, result };
  } catch (error) {
    if (error.kind === "load") failLoading(error);
    reviewShown = error.kind === "cancelled" ? null : { query, error };
  } finally {
    reviewBusy = false;
  }
  renderReview();
  pumpReview();
}

/** Open a reviewed decision's position with its advice, in a new history entry (Back returns). */
function openDecision(decision) {
  writeURL(); // this entry keeps the game with the review open
  backToGame = true;
  reviewOpen = false;
  game = null;
  entry = [];
  redoStack = [];
  Object.assign(state, readQuery(decision.query));
  fillSheetChoices();
  link = null;
  generation++;
  sync();
  writeURL(true);
  renderAll();
  markStale();
  requestAdvice();
  window.scrollTo(0, 0);
  $("#advice-heading").focus({ preventScroll: true });
}

/** An option of the review (chosen or best), as the advice list names it. */
function describeOption(option, decision) {
  const name = option.category === undefined ? null : categoryName(option.category);
  const points = () => pointsText(option, decision.dice, reviewShown.result.variant);
  if (option.keep && option.category === undefined) {
    return option.keep.length ? t("keep", option.keep.join(" ")) : t("keepNone");
  }
  if (option.keep || decision.roll < MAX_ROLLS) return t("stop", name, points());
  return t("scoreAs", name, points());
}

function renderReview() {
  const panel = $("#review");
  const available = game !== null && decisionCount(game) > 0;
  panel.hidden = !(reviewOpen && available);
  const button = $("#review-open");
  button.disabled = !available;
  button.classList.toggle("primary", view?.phase === "over");
  button.setAttribute("aria-expanded", String(!panel.hidden));
  if (panel.hidden) {
    reviewDrawn = null;
    return;
  }

  const status = $("#review-status");
  const body = $("#review-body");
  const query = formatGame(game);
  const current = reviewShown?.query === query ? reviewShown : null;
  if (!current) {
    status.textContent = ready ? t("reviewLoading") : t("reviewWaiting");
    body.setAttribute("aria-busy", "true");
    if (!reviewShown) body.replaceChildren();
    reviewDrawn = null;
    return;
  }
  body.removeAttribute("aria-busy");
  const key = `${current.query}|${language}`;
  if (key === reviewDrawn) return;
  reviewDrawn = key;
  if (current.error) {
    status.textContent = t("internalError", current.error.message);
    body.replaceChildren();
    panel.removeAttribute("data-query");
    return;
  }
  status.textContent = "";
  const review = current.result;
  panel.dataset.query = review.query;
  body.replaceChildren(
    reviewFigures(review),
    el("p", { class: "split", text: t("luckSkill", formatSigned(review.luck), formatSigned(-review.total_loss)) }),
    reviewChart(review),
    el("h3", { text: t("costliest") }),
    review.costliest.length
      ? el(
          "ol",
          { class: "decisions costliest" },
          ...review.costliest.map((i) => decisionItem(review.decisions[i], i, "costly")),
        )
      : el("p", { class: "hint", text: t("noLoss") }),
    el("h3", { text: t("everyDecision") }),
    el("ol", { class: "decisions" }, ...review.decisions.map((d, i) => decisionItem(d, i, "decision"))),
  );
}

function reviewFigures(review) {
  const figure = (label, value, attrs = {}) => el("div", attrs, el("dt", { text: label }), el("dd", { text: value }));
  const n = review.decisions.length;
  const final = review.final ?? null; // None arrives as undefined
  return el(
    "dl",
    {
      class: "figures-list",
      "data-testid": "review-summary",
      "data-final": final,
      "data-total-loss": String(review.total_loss),
      "data-mean-loss": String(review.mean_loss),
      "data-luck": String(review.luck),
      "data-decisions": n,
    },
    final === null
      ? figure(t("inProgress"), formatExpected(review.last))
      : figure(t("finalScore"), String(final), { class: "final" }),
    figure(t("totalLoss"), review.total_loss > 0 ? formatLoss(review.total_loss) : "0.00"),
    figure(t("meanLoss", n), review.mean_loss > 0 ? formatLoss(review.mean_loss) : "0.00"),
  );
}

/** One decision: where, the dice, what was chosen, the best option, the loss; tap to open it. */
function decisionItem(decision, index, testid) {
  const chosen = describeOption(decision.chosen, decision);
  const best = describeOption(decision.best, decision);
  const lost = decision.loss > 0;
  const lossText = lost ? formatLoss(decision.loss) : t("best");
  const button = el(
    "button",
    {
      type: "button",
      class: "decision-button",
      "aria-label": t(
        "decisionName",
        decision.turn,
        decision.roll,
        decision.dice.join(" "),
        chosen,
        lost ? t("lossName", formatLoss(decision.loss)) : t("bestName"),
      ),
    },
    el("span", { class: "where", text: t("where", decision.turn, decision.roll) }),
    el("span", { class: "kept" }, ...decision.dice.map((face) => drawDie(face, "small"))),
    el("span", { class: lost ? "loss lost" : "loss", text: lossText }),
    el("span", { class: "chosen", text: t("chose", chosen) }),
    lost ? el("span", { class: "best-option", text: t("bestWas", best) }) : "",
  );
  button.addEventListener("click", () => openDecision(decision));
  return el(
    "li",
    {
      class: lost ? "decision lost" : "decision",
      "data-testid": testid,
      "data-index": index,
      "data-turn": decision.turn,
      "data-roll": decision.roll,
      "data-loss": String(decision.loss),
      "data-query": decision.query,
    },
    button,
  );
}

/** Round step for about `count` ticks over `span`: 1, 2 or 5 × 10^k. */
function tickStep(span, count) {
  const raw = Math.max(span, 1e-9) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

/** The chart of the expected final score along the game (SVG, drawn here). Besides it, the
 * same line with every loss added back: what the dice alone did (start + luck so far). The
 * band between them is what the decisions cost. */
function reviewChart(review) {
  const points = review.series;
  const n = points.length;
  let lossSoFar = 0;
  let k = 0;
  const expected = points.map((p) => p.expected);
  const dice = points.map((p) => {
    if (p.after === "choice") lossSoFar += review.decisions[k++]?.loss ?? 0;
    return p.expected + lossSoFar;
  });
  const width = Math.max(280, Math.round($("#review-body").clientWidth || 340));
  const height = 210;
  const pad = { left: 40, right: 10, top: 10, bottom: 28 };
  const low = Math.min(...expected);
  const high = Math.max(...dice);
  const step = tickStep(high - low, 4);
  const y0 = Math.floor(low / step) * step;
  const y1 = Math.max(Math.ceil(high / step) * step, y0 + step);
  const x = (i) => pad.left + (n === 1 ? 0 : (i * (width - pad.left - pad.right)) / (n - 1));
  const y = (v) => pad.top + ((y1 - v) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const path = (values) => values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");

  const title = t("chartTitle");
  const desc = t(
    "chartDesc",
    formatExpected(review.start),
    formatExpected(review.last),
    formatSigned(review.luck),
    formatSigned(-review.total_loss),
  );
  const svg = svgEl(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "chart-title chart-desc" },
    svgEl("title", { id: "chart-title", text: title }),
    svgEl("desc", { id: "chart-desc", text: desc }),
  );
  // Horizontal grid lines with their values.
  for (let v = y0; v <= y1 + step / 2; v += step) {
    svg.append(
      svgEl("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
      svgEl("text", { class: "tick", x: pad.left - 4, y: y(v) + 3.5, "text-anchor": "end", text: String(Math.round(v)) }),
    );
  }
  // Turns: a line where each begins, its number under its span.
  const starts = points.map((p, i) => i).filter((i) => i === 0 || points[i].turn !== points[i - 1].turn);
  starts.forEach((start, j) => {
    const end = (starts[j + 1] ?? n) - 1;
    if (j > 0) svg.append(svgEl("line", { class: "turn", x1: x(start), x2: x(start), y1: pad.top, y2: height - pad.bottom }));
    const middle = (x(start) + x(Math.max(start, end))) / 2;
    const room = (x(starts[j + 1] ?? n - 1) - x(start)) || width;
    if (room >= 12 || j % 2 === 0) {
      svg.append(svgEl("text", { class: "tick", x: middle, y: height - pad.bottom + 13, "text-anchor": "middle", text: String(points[start].turn) }));
    }
  });
  svg.append(
    svgEl("text", { class: "axis", x: width - pad.right, y: height - 3, "text-anchor": "end", text: t("axisTurn") }),
    svgEl("polygon", { class: "cost", points: `${path(dice)} ${path(expected).split(" ").reverse().join(" ")}` }),
    svgEl("polyline", { class: "dice-line", points: path(dice) }),
    svgEl("polyline", { class: "expected-line", points: path(expected) }),
  );
  k = 0;
  points.forEach((p, i) => {
    if (p.after !== "choice") return;
    const decision = review.decisions[k++];
    if (decision?.loss > 0) svg.append(svgEl("circle", { class: "mistake", cx: x(i), cy: y(p.expected), r: 3 }));
  });
  const legend = el(
    "ul",
    { class: "legend" },
    el("li", {}, el("span", { class: "swatch expected-line", "aria-hidden": "true" }), t("legendExpected")),
    el("li", {}, el("span", { class: "swatch dice-line", "aria-hidden": "true" }), t("legendDice")),
    el("li", {}, el("span", { class: "swatch cost", "aria-hidden": "true" }), t("legendCost")),
  );
  return el("figure", { class: "chart-box", "data-testid": "chart" }, svg, legend);
}

// Offline: the service worker ------------------------------------------------------------------

let swRegistered = false;
let updating = false;

/** Register sw.js (once the advisor has loaded, so its downloads do not slow the first load).
 * "Ready to work offline" when the first worker takes over this page; "Update available"
 * when a new version waits; its Reload button lets it take over and reloads the page. */
async function registerServiceWorker() {
  if (swRegistered || !("serviceWorker" in navigator)) return;
  swRegistered = true;
  const container = navigator.serviceWorker;
  const hadController = container.controller !== null;
  let registration;
  try {
    registration = await container.register("sw.js", { scope: "./", updateViaCache: "none" });
  } catch (error) {
    console.warn("The page works online only: no service worker.", error);
    return;
  }
  if (!registration) return; // registration refused without an error (e.g. by a test harness)
  const watch = (worker) => {
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && container.controller) showAppNote("update", registration);
      if (worker.state === "activated" && !hadController) showAppNote("offline");
    });
  };
  if (registration.waiting && container.controller) showAppNote("update", registration);
  watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  // A new version took over (here, or in another tab of the page): reload, so that the page
  // never runs against another version's files. The first worker's takeover is not a change.
  container.addEventListener("controllerchange", () => {
    if (updating || hadController) location.reload();
  });
}

/** The note under the header: {kind: "offline" | "update"}. */
let appNote = null;

function showAppNote(kind, registration = null) {
  appNote = { kind, registration };
  renderAppNote();
}

function renderAppNote() {
  const box = $("#app-note");
  box.hidden = appNote === null;
  if (!appNote) return;
  box.dataset.kind = appNote.kind;
  $("#app-note-text").textContent = t(appNote.kind === "update" ? "updateAvailable" : "offlineReady");
  $("#app-note-reload").hidden = appNote.kind !== "update";
}

function reloadForUpdate() {
  const waiting = appNote?.registration?.waiting;
  if (!waiting) return location.reload();
  updating = true;
  waiting.postMessage({ type: "skip-waiting" });
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
    select.addEventListener("change", () => setSheet(c, select.value === "" ? null : Number(select.value)));
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
  const playing = game !== null;
  // Roll and variant: the game's own while playing along.
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.checked = Number(radio.value) === state.roll;
    radio.disabled = playing;
  }
  for (const radio of document.querySelectorAll("input[name=variant]")) {
    radio.checked = radio.value === state.variant;
    radio.disabled = playing;
  }
  renderDice();
  renderSheet();
  renderGameBar();
}

function renderDice() {
  const playing = game !== null;
  const locked = playing ? view.locked : [];
  const slots = state.dice.map((face, i) => {
    if (locked[i]) {
      return el("span", { class: "slot locked", role: "img", "aria-label": t("keptDie", face) }, drawDie(face, "large"));
    }
    const button = el("button", { type: "button", class: "slot", "aria-label": t("removeDie", i + 1, face) });
    button.append(drawDie(face, "large"));
    button.addEventListener("click", () => removeDie(i));
    return button;
  });
  while (slots.length < N_DICE) slots.push(el("span", { class: "slot empty", "aria-hidden": "true" }));
  $("#slots").replaceChildren(...slots);

  const missing = N_DICE - state.dice.length;
  const nLocked = locked.filter(Boolean).length;
  const entering = !playing || view.phase === "dice";
  let hint;
  if (playing && view.phase === "over") hint = "";
  else if (playing && view.phase === "choice") hint = nLocked < N_DICE ? t("diceHintChoice") : "";
  else if (nLocked && missing) hint = t("diceHintKept", missing);
  else if (state.dice.length === 0) hint = t("diceHintEmpty");
  else hint = missing ? t("diceHintMore", missing) : t("diceHintFull");
  $("#dice-hint").textContent = hint;

  const removable = lastRemovable() >= 0 && (!playing || view.phase !== "over");
  $("#backspace").disabled = !removable;
  $("#clear-dice").disabled = !removable;
  $("#roll-for-me").disabled = !(entering && missing > 0);
  for (const button of document.querySelectorAll("#keypad button")) button.disabled = !entering;
}

function renderSheet() {
  const playing = game !== null;
  const complete = state.dice.length === N_DICE;
  const scorable = canScore();
  for (const row of document.querySelectorAll("tr[data-category]")) {
    const c = Number(row.dataset.category);
    const value = state.sheet[c];
    row.querySelector("label").textContent = categoryName(c);
    const select = row.querySelector("select");
    select.value = value === null ? "" : String(value);
    select.options[0].textContent = t("emptyCell");
    select.disabled = playing;
    row.classList.toggle("filled", value !== null);
    const preview = row.querySelector(".preview");
    if (value === null && complete) {
      const points = pointsOf(state.dice, c, state.variant);
      if (scorable) {
        const button = el("button", {
          type: "button",
          class: "score-here",
          "aria-label": t("scoreHere", points, categoryName(c)),
          text: t("preview", points),
        });
        button.addEventListener("click", () => applyOption({ category: c }));
        preview.replaceChildren(button);
      } else {
        preview.replaceChildren(el("span", { "aria-hidden": "true", text: t("preview", points) }));
        preview.append(el("span", { class: "visually-hidden", text: t("previewName", points) }));
      }
    } else {
      preview.replaceChildren();
    }
  }
  const totals = sheetTotals(state.sheet);
  $("#subtotal").textContent = `${totals.upper} / ${rules.bonus.threshold}`;
  const need = rules.bonus.threshold - totals.upper;
  $("#bonus").textContent = totals.bonus > 0 ? `+${totals.bonus}` : totals.upperFull ? "0" : t("bonusNeed", need);
  $("#total").textContent = String(totals.total);
  $("#sheet-locked").hidden = !playing;
}

function renderGameBar() {
  const status = $("#game-status");
  if (!game) status.textContent = t("playHint");
  else if (view.phase === "over") status.textContent = t("playingOver");
  else status.textContent = t("playing", view.turn, view.roll);
  status.classList.toggle("playing", game !== null);
  $("#undo").disabled = !canUndo();
  $("#redo").disabled = redoStack.length === 0;
  $("#back-to-game").hidden = !backToGame;
  $("#link-label").textContent = t(game ? "linkLabelGame" : "linkLabel");
  renderReview();
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
    $("#error-details").hidden = !loadError.details;
    $("#error-details pre").textContent = loadError.details ?? "";
    errorBox.hidden = false;
    $("#retry").hidden = false;
    summary.textContent = "";
    list.replaceChildren();
    list.removeAttribute("data-query");
    return;
  }
  $("#retry").hidden = true;
  $("#error-details").hidden = true;
  if (shown?.error) {
    const { error } = shown;
    const linkText = shown.action === "game" ? "gameLinkError" : "linkError";
    errorText.textContent =
      error.kind === "position" ? (shown.link ? t(linkText, error.message) : error.message) : t("internalError", error.message);
    errorBox.hidden = false;
    summary.textContent = "";
    list.replaceChildren();
    list.setAttribute("data-query", shown.query);
    return;
  }
  errorBox.hidden = true;
  errorText.textContent = "";
  delete summary.dataset.expected;
  const current = shown?.query === currentQuery() || shown?.query === link ? shown : null;
  if (game && view.phase === "dice") return renderEntryPrompt(current?.action === "game" ? current.result : null);
  if (!shown) {
    summary.textContent = ready ? "" : t("waiting");
    list.replaceChildren();
    return;
  }

  const result = shown.action === "game" ? shown.result.advice : shown.result;
  const expected = formatExpected(result.expected);
  summary.dataset.expected = String(result.expected);
  if (result.over) summary.textContent = t("over", result.score);
  else if (result.roll === 0 && state.dice.length > 0 && state.dice.length < N_DICE) {
    summary.textContent = t("needDice", N_DICE - state.dice.length, expected);
  } else if (result.roll === 0) summary.textContent = t("beforeRoll", expected, result.score);
  else summary.textContent = t("bestPlay", expected, result.score);

  const position = shown.action === "game" ? shown.result.position : shown.result.query;
  const dice = readQuery(position).dice;
  const variant = shown.action === "game" ? shown.result.variant : result.variant;
  list.replaceChildren(...result.options.map((option, i) => renderOption(option, i + 1, dice, variant)));
  list.setAttribute("data-query", shown.query);
  list.setAttribute("data-position", position);
  for (const row of document.querySelectorAll("tr[data-category]")) {
    const best = result.options[0]?.category;
    row.classList.toggle("best", best !== undefined && Number(row.dataset.category) === best);
  }
}

/** A game waits for dice: what to enter, and the expected final score (once known). */
function renderEntryPrompt(result) {
  const summary = $("#summary");
  const list = $("#options");
  const missing = N_DICE - view.locked.filter(Boolean).length;
  let text;
  let expected = null;
  if (game.keep) {
    text = game.keep.length ? t("enterKept", game.keep.join(" "), missing) : t("enterRerollAll");
    const option = result?.advice.options.find((o) => o.keep && !o.category && sortedKey(o.keep) === sortedKey(game.keep));
    expected = option?.expected ?? null;
  } else {
    text = t("enterTurn", view.turn);
    expected = result && result.advice.roll === 0 ? result.advice.expected : null;
  }
  if (expected !== null) {
    text = `${text} ${t("expectedNow", formatExpected(expected))}`;
    summary.dataset.expected = String(expected);
  }
  summary.textContent = text;
  list.replaceChildren();
  if (result) list.setAttribute("data-query", result.query);
  else list.removeAttribute("data-query");
  for (const row of document.querySelectorAll("tr[data-category]")) row.classList.remove("best");
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
  renderAppNote();
}

/** Everything, after the input was replaced wholesale (a link, Back, a new game). */
function renderAll() {
  fillSheetChoices();
  render();
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
      if (rules) render();
      else renderStatic();
    });
  }
  for (const radio of document.querySelectorAll("input[name=roll]")) {
    radio.addEventListener("change", () => {
      if (!game) change((s) => (s.roll = Number(radio.value)));
    });
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
  $("#backspace").addEventListener("click", () => {
    const i = lastRemovable();
    if (i >= 0) removeDie(i);
  });
  $("#clear-dice").addEventListener("click", clearDice);
  $("#roll-for-me").addEventListener("click", rollForMe);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#review-open").addEventListener("click", () => (reviewOpen ? closeReview() : openReview()));
  $("#review-close").addEventListener("click", closeReview);
  $("#back-to-game").addEventListener("click", () => history.back());
  $("#app-note-reload").addEventListener("click", reloadForUpdate);
  $("#app-note-close").addEventListener("click", () => {
    appNote = null;
    renderAppNote();
  });
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

  // Keyboard: digits add dice, Backspace deletes the last, Delete clears, R cycles the roll;
  // Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo.
  document.addEventListener("keydown", (event) => {
    if (rules === null || event.altKey) return;
    if (event.target.closest?.("select, input[type=text], textarea")) return;
    const key = event.key.toLowerCase();
    if (event.ctrlKey || event.metaKey) {
      if (key === "z" && !event.shiftKey) undo();
      else if ((key === "z" && event.shiftKey) || key === "y") redo();
      else return;
    } else if (/^[1-6]$/.test(event.key)) addDie(Number(event.key));
    else if (event.key === "Backspace" && lastRemovable() >= 0) removeDie(lastRemovable());
    else if (event.key === "Delete") clearDice();
    else if (key === "r") cycleRoll();
    else return;
    event.preventDefault();
  });

  // Back and Forward: the entry's URL and state, checked by Python like a link.
  window.addEventListener("popstate", () => {
    if (rules === null) return;
    readLocation();
    generation++;
    $("#note").textContent = "";
    renderAll();
    markStale();
    requestAdvice();
    requestReview();
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
  readLocation();
  buildSheet();
  render();
  requestAdvice();
}

main();
