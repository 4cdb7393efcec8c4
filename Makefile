# The two commands of the README:  make serve  and  make test.
# Everything they need is set up here on a fresh machine (.venv/, node_modules/,
# the tables, the site, a headless Chromium for the browser tests).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
CORE := $(wildcard py/yacht/*.py py/yacht/*/*.py) $(wildcard build_table/*.py)
# Every kind of table of every variant (the registry py/yacht/core/table_kinds.py): build_table
# touches this stamp once all of them are built and up to date.
TABLES := public/tables/.built
EXAMPLE := s=3,,9,,,18,,,,,30,&d=14466&r=2
# Games per variant of the duel in `make bench` (about 0.06 s of CPU a game).
DUEL_GAMES ?= 1000

NODE_BIN := node_modules/.bin

.PHONY: serve test test-slow flaky bench tables site advise lint headless-shell engines chromium japanese-font clean

# Serve the page on http://127.0.0.1:$(PORT)/ as soon as it can answer: each variant's table is
# built first (seconds), the site is served, and the tables the page can answer without (the
# chances, the coach's) are built behind it when they are not up to date (tools/serve_first.py).
serve: $(VENV)/.installed node_modules/.installed
	@echo "Serving public/ on http://127.0.0.1:$(PORT)/  (example: http://127.0.0.1:$(PORT)/?$(EXAMPLE))"
	$(PY) tools/serve_first.py $(PORT)

# Lint, then the core, CLI and browser tests on both cores (pytest-xdist: one module per worker at a
# time, so a module's page and Pyodide start are shared), all but the slow ones; test-slow runs those.
# SLOW=1 (CI: .ci/run) runs the slow tests too, in the same run: one pytest, its modules longest
# first (tests/conftest.py), so that neither part ends with one module running alone on one core.
PYTEST_WORKERS ?= 2
PYTEST = $(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder

test: site headless-shell engines lint
	$(PYTEST) $(if $(SLOW),,-m "not slow")

test-slow: site headless-shell
	$(PYTEST) -m slow

# Run the tests FILES names (files or test ids) RUNS times, each run one pytest, and print each run's
# counts and each test's passes (tools/flaky.py); WORKERS=2: as make test runs them (pytest-xdist);
# ARGS: more pytest arguments (e.g. ARGS="-k firefox"). Fails if any run failed.
#   make flaky FILES="tests/browser/test_engines.py" RUNS=5
RUNS ?= 5
WORKERS ?= 1
flaky: site headless-shell engines
	$(PY) tools/flaky.py --runs $(RUNS) --workers $(WORKERS) --pytest-args "$(ARGS)" $(FILES)

# Lint and format checks: ruff for Python; ESLint and Prettier (pinned in package.json) for JavaScript.
lint: $(VENV)/.installed node_modules/.installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(NODE_BIN)/eslint --max-warnings 0 .
	$(NODE_BIN)/prettier --check .

bench: site chromium engines
	$(PY) bench/bench_core.py
	$(PY) bench/bench_tables.py
	$(PY) bench/bench_serve.py
	$(PY) bench/bench_goal.py
	$(PY) bench/bench_goal_page.py
	$(PY) bench/bench_coach.py
	$(PY) bench/bench_coach_page.py
	$(PY) -m yacht duel --games $(DUEL_GAMES)
	$(PY) bench/bench_page.py
	$(PY) bench/bench_startup.py
	$(PY) bench/bench_lazy_compile.py
	$(PY) bench/bench_phone.py --quota 0.5,0.25
	$(PY) bench/bench_rival_wait.py
	$(PY) bench/bench_chart_wait.py
	$(PY) bench/bench_estimate.py
	$(PY) bench/bench_engines.py

# The CLI on an example position.
advise: $(TABLES)
	$(PY) -m yacht advise '$(EXAMPLE)'

tables: $(TABLES)

site: $(TABLES) $(VENV)/.installed node_modules/.installed
	$(PY) tools/build_site.py

# The npm packages pinned in package-lock.json: Pyodide (copied into the site), ESLint, Prettier.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(TABLES): $(CORE) $(VENV)/.installed
	$(PY) -m build_table

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Headless Chromium for Playwright from Debian (Playwright's own download cannot reach its host
# from our machines): the tests run its headless shell (package chromium-headless-shell: no
# browser window, about 1.7 s less CPU per new context; they fall back to chromium), the
# benchmarks the browser itself. And a Japanese font (Debian's fonts-noto-cjk) so the Japanese
# page's screenshots are readable. Installed only when missing and make runs as root.
APT_INSTALL = apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
# $(call debian,command,package,what for)
debian = if command -v $(1) >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's $(2) for $(3)"; $(APT_INSTALL) $(2) >/dev/null; \
	else \
		echo "No $(1) found: install Debian's '$(2)' package for $(3)"; \
	fi

headless-shell: japanese-font
	@$(call debian,chromium-headless-shell,chromium-headless-shell,the browser tests)

# The other engines of the smoke suite (tests/browser/test_engines.py): WebKitGTK's MiniBrowser
# driven by WebKitWebDriver under an Xvfb of the tests' own, and Firefox ESR driven through
# WebDriver BiDi by puppeteer-core (npm, pinned; no geckodriver). Installed only when missing.
engines: japanese-font
	@$(call debian,WebKitWebDriver,webkit2gtk-driver,the WebKit smoke tests)
	@$(call debian,Xvfb,xvfb,the WebKit smoke tests)
	@$(call debian,firefox-esr,firefox-esr,the Firefox smoke tests)

chromium: japanese-font
	@$(call debian,chromium,chromium,the page's benchmarks)

japanese-font:
	@if ! command -v dpkg >/dev/null 2>&1 || dpkg -s fonts-noto-cjk >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's fonts-noto-cjk for the Japanese screenshots"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null \
			|| ($(APT_INSTALL) fonts-noto-cjk >/dev/null); \
	else \
		echo "No Japanese font: install Debian's 'fonts-noto-cjk' package for readable Japanese screenshots"; \
	fi

clean:
	rm -rf public/tables public/pyodide public/runtime public/runtime.js public/py .cache
