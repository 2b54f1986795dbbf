"""HTML is escaped unless it was built as HTML: the memory holds the user's text."""

from __future__ import annotations

from xaid.server.web.markup import Markup, el, esc, join


def test_children_and_attributes_are_escaped() -> None:
    said = '<script>alert("x")</script>'
    out = el("p", said, title=said, data_note="a&b")
    assert out == (
        '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" data-note="a&amp;b">'
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>"
    )
    assert "<script>" not in el("div", ["ok", [said, 3]])


def test_markup_is_kept_and_attributes_follow_their_values() -> None:
    inner = el("b", "粗体")
    assert el("p", inner) == "<p><b>粗体</b></p>"
    assert el("input", type="checkbox", checked=True, disabled=False, name=None) == (
        '<input type="checkbox" checked>'
    )
    assert el("span", class_="x") == '<span class="x"></span>'
    assert join(["<", inner]) == "&lt;<b>粗体</b>"
    assert esc(Markup("<i>")) == "<i>" and esc("<i>") == "&lt;i&gt;"
