# Two entry points for a fresh machine: `make demo` and `make test`.
# Each creates the virtual environment .venv and installs the project on first use.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow lint protos protos-check bench clean

# pip's notices and build warnings go to $(VENV)/install.log, shown only if the install fails.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@echo "installing the arena into $(VENV) (log: $(VENV)/install.log)"
	@{ $(BIN)/python -m pip install --quiet --upgrade pip \
	  && $(BIN)/python -m pip install --quiet -e '.[dev,ray,rl]'; } > $(VENV)/install.log 2>&1 \
	  || { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/arena demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m slow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

protos: $(STAMP)
	$(BIN)/python scripts/gen_protos.py

protos-check: $(STAMP)
	$(BIN)/python scripts/gen_protos.py --check

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
