"""Hierarchical memory: L0 compression, L1 episodes, L2 facts, L3 persona, retrieval, forgetting."""
