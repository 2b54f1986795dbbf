"""The page's style sheet and its one small script, served from the daemon (no CDN: it works
offline). The script only asks before a forget and keeps the page usable without it: every action
is a plain form that posts and is redirected back."""

from __future__ import annotations

CSS = """
:root { font-family: system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; color: #222; }
body { max-width: 60rem; margin: 0 auto; padding: 0.5rem 1rem 3rem; line-height: 1.45; }
header { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; border-bottom: 1px solid #ddd; }
header h1 { font-size: 1.3rem; margin: 0.6rem 0; flex: 1; }
section { margin: 1.4rem 0; }
h2 { font-size: 1.1rem; border-bottom: 1px solid #eee; }
ul.items { list-style: none; padding: 0; }
ul.items > li { padding: 0.4rem 0; border-bottom: 1px dotted #ddd; }
.status { font-size: 0.8rem; padding: 0 0.35rem; border-radius: 0.3rem; background: #eee; }
.status-current { background: #d5f5e3; }
.status-superseded, .status-deleted { background: #fdebd0; }
.superseded, .deleted { color: #777; }
.meta { color: #666; font-size: 0.85rem; }
.note { background: #eaf2f8; padding: 0.4rem 0.7rem; border-radius: 0.3rem; }
.error { background: #fadbd8; padding: 0.4rem 0.7rem; border-radius: 0.3rem; }
form.inline { display: inline; }
input[type=text], input[type=search], input[type=password] { padding: 0.25rem; min-width: 14rem; }
button { margin: 0.1rem; }
button.danger { color: #922; }
.legend { list-style: none; padding: 0; display: flex; gap: 1rem; }
.swatch { display: inline-block; width: 0.9rem; height: 0.9rem; margin-right: 0.3rem; vertical-align: middle; }
.swatch-valence { background: #c0392b; } .swatch-arousal { background: #2471a3; }
.swatch-fatigue { background: #7d3c98; } .swatch-confidence { background: #7f8c8d; }
svg { max-width: 100%; height: auto; }
.turn { margin: 0.3rem 0; } .turn .who { font-weight: bold; margin-right: 0.4rem; }
"""

JS = """
"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  var ask = form.getAttribute("data-confirm");
  if (ask && !window.confirm(ask)) { event.preventDefault(); }
});
"""
