// ESLint for the page's JavaScript (run by `make lint`): the recommended rules, browser and
// worker globals, and no import cycle under web/ (data flows one way: main wires the actions,
// the actions and the advisor render the views, the views call the handlers they are given);
// formatting is Prettier's (.prettierrc.json).
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import globals from "globals";

export default [
  { ignores: ["public/", "node_modules/", ".venv/", "artifacts/", ".cache/"] },
  js.configs.recommended,
  {
    files: ["web/app/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["web/worker.js", "web/snapshot.js", "web/bare-worker.js"],
    languageOptions: { sourceType: "module", globals: globals.worker },
  },
  {
    files: ["web/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["web/**/*.js"],
    plugins: { "import-x": importX },
    rules: { "import-x/no-cycle": ["error", { maxDepth: Infinity }] },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
