// The texts around the page, in English and Japanese: the note in the title's place (offline,
// an update) and the footer's link to the player's guide (docs/guide*.md, built into guide*.html);
// texts.js adds them to its tables.

export const NOTE_TEXTS = {
  en: {
    guideLink: "Player's guide",
    guideHref: "guide.html",
    offlineReady: "Offline ready.",
    updateAvailable: "Update available.",
    reload: "Reload",
    dismiss: "Dismiss",
  },
  ja: {
    guideLink: "遊び方ガイド",
    guideHref: "guide.ja.html",
    offlineReady: "オフライン対応済み",
    updateAvailable: "新しいバージョンがあります。",
    reload: "再読み込み",
    dismiss: "閉じる",
  },
};
