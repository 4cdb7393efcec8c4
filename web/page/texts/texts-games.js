// The texts of the games kept on the device (games.js, views/games.js), in English and Japanese;
// texts.js merges them into its own.

export const GAMES_TEXTS = {
  en: {
    gamesHeading: "Games on this device",
    gamesEmpty: "No game kept yet: every change is kept here as you play.",
    resume: "Resume",
    resumeGame: (turn, score) => `Resume: turn ${turn}, ${score} points`,
    resumeOver: (score) => `Your last game: ${score} points`,
    resumeResult: (result) => `Your last game: ${result}`,
    gameAt: (turn, score) => `Turn ${turn}, ${score} points`,
    gameFinal: (score) => `Final score ${score}`,
    gameOpponent: (score) => `opponent ${score}`,
    resultWin: (mine, theirs) => `You won ${mine}–${theirs}`,
    resultLoss: (mine, theirs) => `Rival won ${theirs}–${mine}`,
    resultDraw: (mine, theirs) => `Draw ${mine}–${theirs}`,
    shareGame: (status) => `Share (${status})`,
    deleteGame: (status) => `Delete (${status})`,
    delete: "Delete",
    notKept: "This game will not be kept on this device: its storage is blocked or full.",
    skippedGames: (n) => `${n} kept ${n === 1 ? "game was" : "games were"} damaged and skipped.`,
    storageKept: "The browser keeps these games for good: it will not delete them to make room.",
    storageMayGo:
      "The browser may delete these games (after weeks without a visit, or when space runs short). To keep them, add this page to your home screen, or export them to a file.",
    exportGames: "Export to a file",
    importGames: "Import a file",
    imported: (added, updated) =>
      added + updated === 0
        ? "Imported: every game of the file is already here."
        : `Imported: ${added} ${added === 1 ? "game" : "games"} added, ${updated} updated.`,
    importRefused: (reason) => `Not imported, nothing changed: ${reason}`,
    importUnread: "the file could not be read.",
    importTooLarge: "the file is too large to be a file of games.",
    importNotJson: "the file is damaged or cut short (it is not complete JSON).",
    importNoFormat: "it is not a file of games exported from this page (it names no format).",
    importOtherFormat: (format, ours) =>
      `the file's format is ${format}, not ${ours}: it comes from another site or program.`,
    importNoVersion: "the file names no version.",
    importOtherVersion: (version, ours) => `the file is of version ${version}; this page reads version ${ours}.`,
    importNoGames: "the file holds no list of games.",
    importBadGame: (n) => `game ${n} of the file is damaged.`,
    importSameId: (n) => `game ${n} of the file has the id of an earlier one.`,
    importTooMany: (n, max) => `with it this device would hold ${n} games, more than the ${max} it keeps.`,
    importStorage: "this device's storage is blocked or full.",
  },
  ja: {
    gamesHeading: "この端末のゲーム",
    gamesEmpty: "まだありません。遊ぶたびにここへ保存されます。",
    resume: "再開",
    resumeGame: (turn, score) => `再開: ${turn}ターン目 ${score}点`,
    resumeOver: (score) => `前回のゲーム: ${score}点`,
    resumeResult: (result) => `前回のゲーム: ${result}`,
    gameAt: (turn, score) => `${turn}ターン目 ${score}点`,
    gameFinal: (score) => `最終得点 ${score}点`,
    gameOpponent: (score) => `相手 ${score}点`,
    resultWin: (mine, theirs) => `あなたの勝ち ${mine}対${theirs}`,
    resultLoss: (mine, theirs) => `相手の勝ち ${theirs}対${mine}`,
    resultDraw: (mine, theirs) => `引き分け ${mine}対${theirs}`,
    shareGame: (status) => `共有 (${status})`,
    deleteGame: (status) => `削除 (${status})`,
    delete: "削除",
    notKept: "このゲームはこの端末に保存されません (保存領域が使えないか満杯です)。",
    skippedGames: (n) => `保存されたゲーム${n}件が壊れていたので飛ばしました。`,
    storageKept: "ブラウザーはこれらのゲームを消さずに保存します (容量が足りなくなっても消しません)。",
    storageMayGo:
      "ブラウザーがこれらのゲームを消すことがあります (何週間も開かなかったときや容量が足りないとき)。残すには、このページをホーム画面に追加するか、ファイルに保存してください。",
    exportGames: "ファイルに保存",
    importGames: "ファイルから読み込む",
    imported: (added, updated) =>
      added + updated === 0
        ? "読み込みました: ファイルのゲームはすべてこの端末にあります。"
        : `読み込みました: 追加${added}件、更新${updated}件。`,
    importRefused: (reason) => `読み込みませんでした (何も変わっていません): ${reason}`,
    importUnread: "ファイルを読めませんでした。",
    importTooLarge: "ゲームのファイルにしては大きすぎます。",
    importNotJson: "ファイルが壊れているか途中で切れています (完全なJSONではありません)。",
    importNoFormat: "このページから保存したゲームのファイルではありません (形式の名前がありません)。",
    importOtherFormat: (format, ours) =>
      `ファイルの形式が ${ours} ではなく ${format} です (別のサイトやプログラムのファイルです)。`,
    importNoVersion: "ファイルに版の番号がありません。",
    importOtherVersion: (version, ours) => `ファイルの版は ${version} です。このページが読めるのは版 ${ours} です。`,
    importNoGames: "ファイルにゲームの一覧がありません。",
    importBadGame: (n) => `ファイルの${n}件目のゲームが壊れています。`,
    importSameId: (n) => `ファイルの${n}件目のゲームのIDが前のゲームと同じです。`,
    importTooMany: (n, max) => `読み込むとこの端末のゲームが${n}件になり、保存できる${max}件を超えます。`,
    importStorage: "この端末の保存領域が使えないか満杯です。",
  },
};
