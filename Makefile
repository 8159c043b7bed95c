# Two commands set everything up on a fresh machine with Python 3.11 and make:
#   make run   - the main job (a terminal table when no chat token is configured); runtime dependencies only,
#                the versions and hashes of requirements.lock
#   make test  - every test (the dev tools too)
#   make lock  - requirements.lock written again from pyproject.toml (pip-tools' pip-compile)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed-run

.PHONY: run test lint bench bench-lighthouse simulate clean guides catalogs catalogs-report lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(RUN_STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/rummyclub run

lock: $(STAMP)
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --output-file=requirements.lock pyproject.toml

# Tests run on every core (pytest-xdist); `make test PYTEST_ARGS=-n0` runs them in one process.
PYTEST_ARGS ?= -n auto

test: $(STAMP)
	$(BIN)/ruff check bot rules storage tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# mypy checks rules/, storage/ and bot/ as pyproject.toml [tool.mypy] says.
lint: $(STAMP)
	$(BIN)/ruff check bot rules storage tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python -m bench

# Lighthouse 12.2.3 (mobile) over the web table's pages: pinned in bench/lighthouse, installed here
# (npm ci), driving Debian's chromium (CHROME_PATH, default /usr/bin/chromium).
bench-lighthouse: $(STAMP)
	npm ci --prefix bench/lighthouse --no-audit --no-fund
	$(BIN)/python -m bench.bench_lighthouse

simulate: $(STAMP)
	$(BIN)/rummyclub simulate rummikub --games 20 --seed 1

# The message catalogs (bot/core/locales, gettext PO): every language brought in line with the English
# templates (*.pot), then checked (every message translated, placeholders and plural forms right,
# every key the code uses present). `make test` runs the same checks; the README says how to add a language.
catalogs: $(STAMP)
	$(BIN)/python -m bot.core.catalogs update
	$(BIN)/python -m bot.core.catalogs check

# Messages × languages translated, per catalog domain.
catalogs-report: $(STAMP)
	$(BIN)/python -m bot.core.catalogs report

# The players' guides are edited in docs/ and shipped as package data (bot/core/guides/<lang>/):
# English from docs/, every other language with a catalog from docs/<lang>/.
guides:
	mkdir -p bot/core/guides/en
	cp $$(ls docs/*.md | grep -v '/ARCHITECTURE\.md$$') bot/core/guides/en/
	for lang in $$(ls bot/core/locales | grep -v '\.pot$$'); do \
		mkdir -p bot/core/guides/$$lang && cp docs/$$lang/*.md bot/core/guides/$$lang/; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
