"""Speed and resource benchmarks: each module an area of ``python -m perf`` (see perf/README.md)."""
