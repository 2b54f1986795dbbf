"""What every benchmark area returns (a ``Section`` of ``Row``s) and how results are kept and shown.

Each area module exposes ``run(quick: bool) -> Section``. ``__main__`` stamps the section with the
command, date, duration and machine, merges it into ``results.json`` (one entry per area, so running
one area keeps the others) and renders ``RESULTS.md`` from that file.
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

Op = Literal["<=", ">=", "<", ">"]
_OP_TEXT: dict[str, str] = {"<=": "≤", ">=": "≥", "<": "<", ">": ">"}


@dataclass(frozen=True)
class Aim:
    """A target from the issue, in the unit of the row it belongs to."""

    op: Op
    bound: float

    def met(self, value: float) -> bool:
        return {
            "<=": value <= self.bound,
            ">=": value >= self.bound,
            "<": value < self.bound,
            ">": value > self.bound,
        }[self.op]


@dataclass
class Row:
    figure: str
    value: float
    unit: str
    aim: Aim | None = None
    ratio: float | None = None  # this value / the baseline's value, measured in the same run
    baseline: str = ""  # what the ratio compares against, e.g. "asyncio"
    note: str = ""

    @property
    def met(self) -> bool | None:
        return None if self.aim is None else self.aim.met(self.value)


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Stamped by __main__ after run():
    area: str = ""
    command: str = ""
    date: str = ""
    duration_s: float = 0.0
    quick: bool = False
    machine: dict[str, Any] = field(default_factory=dict)


def machine() -> dict[str, Any]:
    """CPU model, cores, RAM, OS and Python of this machine."""
    cpu = platform.processor() or platform.machine()
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    cpu = info.get("model name") or info.get("Model") or info.get("Hardware") or cpu
    ram_kib = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_kib = int(line.split()[1])
    except OSError:
        pass
    return {
        "cpu": cpu,
        "arch": platform.machine(),
        "cores": os.cpu_count() or 0,
        "usable_cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count() or 0,
        "ram_gib": round(ram_kib / 1024 / 1024, 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


# --- results.json -------------------------------------------------------------------------------


def section_to_json(section: Section) -> dict[str, Any]:
    data = asdict(section)
    for row, raw in zip(section.rows, data["rows"], strict=True):
        raw["met"] = row.met
    return data


def section_from_json(data: dict[str, Any]) -> Section:
    rows = []
    for raw in data.get("rows", []):
        raw = {k: v for k, v in raw.items() if k != "met"}
        aim = raw.pop("aim", None)
        rows.append(Row(**raw, aim=Aim(**aim) if aim else None))
    return Section(**{**{k: v for k, v in data.items() if k != "rows"}, "rows": rows})


def load(path: Path) -> dict[str, Section]:
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return {area: section_from_json(s) for area, s in raw.get("sections", {}).items()}
    except (ValueError, TypeError, KeyError):
        return {}  # an older or hand-edited file: start over rather than fail the run


def save(path: Path, sections: dict[str, Section]) -> None:
    payload = {
        "generated": now(),
        "machine": machine(),
        "sections": {area: section_to_json(s) for area, s in sections.items()},
    }
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --- RESULTS.md ---------------------------------------------------------------------------------


def fmt_value(value: float, unit: str) -> str:
    if unit in ("req/s", "µs", "KiB"):
        text = f"{value:,.0f}"
    elif unit == "s":
        text = f"{value:.3f}"
    elif abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def fmt_machine(m: dict[str, Any]) -> str:
    return (
        f"{m.get('cpu', '?')} ({m.get('arch', '?')}), {m.get('cores', '?')} cores "
        f"({m.get('usable_cores', '?')} usable), {m.get('ram_gib', '?')} GiB RAM, {m.get('os', '?')}, "
        f"{m.get('python', '?')}"
    )


def render_section(section: Section, host: dict[str, Any]) -> list[str]:
    out = [f"## {section.title}", ""]
    quick = " — **quick run: counts shrunk, figures are rough**" if section.quick else ""
    out.append(
        f"Measured {section.date} with `{section.command}` in {section.duration_s:.0f} s{quick}."
    )
    if section.machine and section.machine != host:
        out.append(f"On another machine: {fmt_machine(section.machine)}.")
    out += ["", "| figure | value | aim | ratio | note |", "|---|---:|---|---:|---|"]
    for row in section.rows:
        aim = ""
        if row.aim is not None:
            mark = "met" if row.met else "**not met**"
            aim = f"{_OP_TEXT[row.aim.op]} {fmt_value(row.aim.bound, row.unit)}: {mark}"
        ratio = "" if row.ratio is None else f"×{row.ratio:.2f} vs {row.baseline}"
        cells = (row.figure, fmt_value(row.value, row.unit), aim, ratio, row.note)
        out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    if section.notes:
        out.append("")
        out += [f"- {note}" for note in section.notes]
    out.append("")
    return out


def render(sections: dict[str, Section]) -> str:
    host = machine()
    lines = [
        "# xaid benchmark results",
        "",
        "Generated by `python -m perf` (see perf/README.md); do not edit by hand.",
        "",
        f"- Machine: {fmt_machine(host)}",
        f"- Rendered: {now()}",
        "",
        "Absolute figures vary on a shared machine; ratios measured within one run are the comparable ones.",
        "",
    ]
    for section in sections.values():
        lines += render_section(section, host)
    return "\n".join(lines).rstrip() + "\n"
