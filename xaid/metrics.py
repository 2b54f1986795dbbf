"""The ``stats`` figures in the Prometheus text exposition format (version 0.0.4).

One function over the same dictionary ``stats`` returns, so the JSON and the Prometheus views
can never disagree.
"""

from __future__ import annotations

from typing import Any


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def prometheus(stats: dict[str, Any]) -> str:
    lines: list[str] = []

    def metric(name: str, kind: str, help_text: str, samples: list[tuple[str, float]]) -> None:
        lines.append(f"# HELP xaid_{name} {help_text}")
        lines.append(f"# TYPE xaid_{name} {kind}")
        for labels, value in samples:
            lines.append(f"xaid_{name}{labels} {value}")

    methods = stats.get("methods", {})
    metric("requests_total", "counter", "Requests answered, by method.",
           [(f'{{method="{_label(m)}"}}', s["calls"]) for m, s in methods.items()])
    metric("request_errors_total", "counter", "Requests answered with an error, by method.",
           [(f'{{method="{_label(m)}"}}', s["errors"]) for m, s in methods.items()])
    metric("request_latency_ms", "summary", "Latency of recent requests in milliseconds, by method.",
           [(f'{{method="{_label(m)}",quantile="{q}"}}', s[f"p{int(float(q) * 100)}_ms"])
            for m, s in methods.items() for q in ("0.5", "0.95", "0.99")])
    metric("connections_total", "counter", "Connections accepted since start.",
           [("", stats.get("connections_total", 0))])
    metric("connections_refused_total", "counter", "Connections refused (allow-list or limit).",
           [("", stats.get("connections_refused", 0))])
    metric("protocol_errors_total", "counter", "Malformed frames received.", [("", stats.get("protocol_errors", 0))])
    metric("llm_generations_total", "counter", "Model generations finished.", [("", stats.get("llm_generated", 0))])
    speed = stats.get("llm_speed", {})
    for key, name, help_text in (
        ("first_token_ms", "llm_first_token_ms", "Time to the first piece of a reply, recent turns, in milliseconds."),
        ("generation_tokens_per_s", "llm_generation_tokens_per_second", "Generation speed of recent replies."),
        ("prompt_tokens_per_s", "llm_prompt_tokens_per_second", "Prompt reading speed of recent generations."),
    ):
        summary = speed.get(key) or {}
        metric(name, "summary", help_text,
               [(f'{{quantile="{q}"}}', summary[p]) for q, p in (("0.5", "p50"), ("0.95", "p95"))
                if summary.get(p) is not None])
    memory = {k: v for k, v in stats.get("memory", {}).items()
              if isinstance(v, int | float) and not isinstance(v, bool)}
    metric("memory_events_total", "counter", "Memory events (episodes by path, fact decisions, LLM calls, embeddings).",
           [(f'{{event="{_label(k)}"}}', v) for k, v in sorted(memory.items())])
    sched = stats.get("scheduler", {})
    metric("recall_pushes_total", "counter", "Proactive suggestions given.", [("", sched.get("pushes", 0))])
    metric("recall_engaged_total", "counter", "Suggestions the user took up.", [("", sched.get("engaged", 0))])
    metric("recall_annoying_total", "counter", "Suggestions rated annoying.", [("", sched.get("annoying", 0))])
    return "\n".join(lines) + "\n"
