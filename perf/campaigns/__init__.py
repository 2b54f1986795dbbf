"""Fault and hardening campaigns against a real daemon (see perf/README.md)."""
