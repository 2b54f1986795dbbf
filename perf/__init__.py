"""Benchmarks of xaid (not tests): ``python -m perf [AREA ...] [--quick]``; see perf/README.md."""
