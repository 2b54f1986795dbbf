"""The mood plot: plain SVG drawn on the server from ``mood.history`` (no library, no network).

Four lines over the last 30 days: valence (-1..1) and arousal, fatigue and confidence (0..1) on one
axis from -1 to 1, each a step line (the state holds until the next reading); a dashed mark where a
session opened; day ticks along the bottom and the axis titles as ``<text>``, so a screen reader
and a test both find them.
"""

from __future__ import annotations

from datetime import datetime

from ...clock import DAY_MS, zone
from ...store.mood import MoodChange
from ...store.sessions import Session
from .i18n import Lang, t
from .markup import Markup, el, join

W, H = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 28, 14, 48
SERIES = (
    ("valence", "#c0392b"),
    ("arousal", "#2471a3"),
    ("fatigue", "#7d3c98"),
    ("confidence", "#7f8c8d"),
)


def _x(ts: int, start: int, end: int) -> float:
    return LEFT + (W - LEFT - RIGHT) * (ts - start) / max(1, end - start)


def _y(v: float) -> float:
    v = max(-1.0, min(1.0, v))
    return TOP + (H - TOP - BOTTOM) * (1 - (v + 1) / 2)


def _steps(points: list[tuple[int, float]], start: int, end: int) -> str:
    out: list[str] = []
    last: float | None = None
    for ts, v in points:
        x = _x(ts, start, end)
        if last is not None:
            out.append(f"{x:.1f},{_y(last):.1f}")
        out.append(f"{x:.1f},{_y(v):.1f}")
        last = v
    if last is not None:
        out.append(f"{_x(end, start, end):.1f},{_y(last):.1f}")
    return " ".join(out)


def mood_svg(
    readings: list[MoodChange], sessions: list[Session], now_ms: int, lang: Lang
) -> Markup:
    start = now_ms - 30 * DAY_MS
    parts: list[Markup] = [
        el(
            "rect",
            x=LEFT,
            y=TOP,
            width=W - LEFT - RIGHT,
            height=H - TOP - BOTTOM,
            fill="#fcfcfc",
            stroke="#999",
        )
    ]
    for v in (-1.0, -0.5, 0.0, 0.5, 1.0):
        y = _y(v)
        parts.append(el("line", x1=LEFT, y1=f"{y:.1f}", x2=W - RIGHT, y2=f"{y:.1f}", stroke="#ddd"))
        parts.append(
            el("text", f"{v:g}", x=LEFT - 6, y=f"{y + 4:.1f}", text_anchor="end", font_size=11)
        )
    for day in range(0, 31, 5):
        ts = start + day * DAY_MS
        x = _x(ts, start, now_ms)
        label = datetime.fromtimestamp(ts / 1000, zone()).strftime("%m-%d")
        parts.append(
            el(
                "line",
                x1=f"{x:.1f}",
                y1=H - BOTTOM,
                x2=f"{x:.1f}",
                y2=H - BOTTOM + 4,
                stroke="#666",
            )
        )
        parts.append(
            el("text", label, x=f"{x:.1f}", y=H - BOTTOM + 16, text_anchor="middle", font_size=11)
        )
    for s in sessions:
        x = _x(max(s.opened_ms, start), start, now_ms)
        parts.append(
            el(
                "line",
                el("title", f"{t(lang, 'session')} {s.session_id}"),
                x1=f"{x:.1f}",
                y1=TOP,
                x2=f"{x:.1f}",
                y2=H - BOTTOM,
                stroke="#e67e22",
                stroke_dasharray="3,3",
                class_="session-mark",
            )
        )
    for name, colour in SERIES:
        points = [(max(r.ts_ms, start), float(getattr(r.state, name))) for r in readings]
        if points:
            parts.append(
                el(
                    "polyline",
                    points=_steps(points, start, now_ms),
                    fill="none",
                    stroke=colour,
                    stroke_width=2,
                    class_=f"series series-{name}",
                )
            )
    parts.append(
        el(
            "text",
            t(lang, "axis_time"),
            x=(LEFT + W - RIGHT) / 2,
            y=H - 8,
            text_anchor="middle",
            font_size=12,
            class_="axis-label",
        )
    )
    parts.append(
        el(
            "text",
            t(lang, "axis_level"),
            x=14,
            y=(TOP + H - BOTTOM) / 2,
            text_anchor="middle",
            font_size=12,
            transform=f"rotate(-90 14 {(TOP + H - BOTTOM) / 2})",
            class_="axis-label",
        )
    )
    if not readings:
        parts.append(
            el(
                "text",
                t(lang, "no_mood"),
                x=(LEFT + W - RIGHT) / 2,
                y=(TOP + H - BOTTOM) / 2,
                text_anchor="middle",
                font_size=13,
            )
        )
    legend = join(
        el("li", el("span", "", class_=f"swatch swatch-{name}"), t(lang, name))
        for name, _ in SERIES
    )
    svg = el(
        "svg",
        el("title", t(lang, "mood")),
        join(parts),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {W} {H}",
        width=W,
        height=H,
        role="img",
        id="mood-plot",
        aria_label=t(lang, "mood"),
    )
    return join([svg, el("ul", legend, class_="legend")])
