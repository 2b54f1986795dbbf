"""Quality evaluations: labelled suites, LoCoMo, replies, token counts (see perf/README.md)."""
