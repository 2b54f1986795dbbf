"""HTML built from Python, escaped by default: every string that is not already ``Markup`` is passed
through ``html.escape`` on its way in, attribute values included. What the memory holds is the
user's own text (and a model's), so a ``<script>`` said in a conversation must reach the page as
words, never as markup; building the page only through ``el`` makes forgetting to escape impossible
rather than merely unlikely.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

VOID = frozenset({"br", "input", "meta", "link", "hr", "img"})


class Markup(str):
    """Text that is already HTML (built by ``el``, or a constant of this package)."""

    __slots__ = ()


def esc(value: object) -> Markup:
    return value if isinstance(value, Markup) else Markup(html.escape(str(value), quote=True))


def _children(children: Iterable[object]) -> str:
    out: list[str] = []
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, str | int | float):
            out.append(esc(child))
        else:
            out.append(_children(child))  # type: ignore[arg-type]  # a nested iterable of children
    return "".join(out)


def el(tag: str, *children: object, **attrs: object) -> Markup:
    """``<tag attrs>children</tag>``. ``class_`` is ``class``, ``data_x`` is ``data-x``; True is a
    bare attribute, None and False leave it out."""
    parts = [tag]
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(key if value is True else f'{key}="{esc(value)}"')
    head = "<" + " ".join(parts) + ">"
    if tag in VOID:
        return Markup(head)
    return Markup(f"{head}{_children(children)}</{tag}>")


def join(parts: Iterable[object]) -> Markup:
    return Markup(_children(parts))
