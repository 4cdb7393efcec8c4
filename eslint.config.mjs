// ESLint for the page's JavaScript (run by `make lint`): the recommended rules, browser and
// worker globals (Node's for the build's tools/compile_pyc.mjs); formatting is Prettier's (.prettierrc.json). That no import under web/ makes a
// cycle is tests/test_web_imports.py's check.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["public/", "node_modules/", ".venv/", "artifacts/", ".cache/"] },
  js.configs.recommended,
  {
    files: ["web/page/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    files: ["web/worker/**/*.js", "bench/page/*.js"],
    languageOptions: { sourceType: "module", globals: globals.worker },
  },
  {
    // Evaluated in the page by the browser tests (a script, not a module).
    files: ["tests/browser/**/*.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
  },
  {
    files: ["tools/compile_pyc.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
  {
    files: ["web/service-worker/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
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
