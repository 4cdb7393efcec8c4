// The texts of the games kept on the device (games.js, view-games.js), in English and Japanese;
// texts.js merges them into its own.

export const GAMES_TEXTS = {
  en: {
    gamesHeading: "Games on this device",
    gamesEmpty: "No game kept yet: every change is kept here as you play.",
    resume: "Resume",
    resumeGame: (turn, score) => `Resume: turn ${turn}, ${score} points`,
    resumeOver: (score) => `Your last game: ${score} points`,
    gameAt: (turn, score) => `Turn ${turn}, ${score} points`,
    gameFinal: (score) => `Final score ${score}`,
    gameOpponent: (score) => `opponent ${score}`,
    shareGame: (status) => `Share (${status})`,
    deleteGame: (status) => `Delete (${status})`,
    delete: "Delete",
    notKept: "This game will not be kept on this device: its storage is blocked or full.",
    skippedGames: (n) => `${n} kept ${n === 1 ? "game was" : "games were"} damaged and skipped.`,
  },
  ja: {
    gamesHeading: "この端末のゲーム",
    gamesEmpty: "まだありません。遊ぶたびにここへ保存されます。",
    resume: "再開",
    resumeGame: (turn, score) => `再開: ${turn}ターン目 ${score}点`,
    resumeOver: (score) => `前回のゲーム: ${score}点`,
    gameAt: (turn, score) => `${turn}ターン目 ${score}点`,
    gameFinal: (score) => `最終得点 ${score}点`,
    gameOpponent: (score) => `相手 ${score}点`,
    shareGame: (status) => `共有 (${status})`,
    deleteGame: (status) => `削除 (${status})`,
    delete: "削除",
    notKept: "このゲームはこの端末に保存されません (保存領域が使えないか満杯です)。",
    skippedGames: (n) => `保存されたゲーム${n}件が壊れていたので飛ばしました。`,
  },
};
