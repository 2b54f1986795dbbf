"""xaictl demo: the point of xaid in two minutes — an evening, a night, the next morning.

The user comes home exhausted and says so; the session closes and is remembered. The next
morning they say only "Morning." The companion's reply is printed with what the daemon gave the
model besides the conversation (``explain``): what it recalled, the mood it still senses, and the
check-in the scheduler suggests. Both days are replayed with ``ts`` (docs/protocol.md), so the
night passes in a second; the scene runs in English and in Chinese, each with its own agent,
recreated at every run so that earlier runs do not blur it. ``make demo`` runs it; so can anyone:
``xaictl demo`` against a running daemon.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import sys
from dataclasses import dataclass
from typing import Any

from . import cli_explain
from .client import Client
from .wire import NotFound

MINUTE_MS = 60_000
DEMO_CONFIG = {"max_tokens": 96}  # short replies: the demo is about what the model was given


@dataclass(frozen=True)
class Scene:
    lang: str
    agent_id: str
    name: str
    persona: str
    evening: tuple[str, ...]
    morning: str


SCENES = (
    Scene(
        "en",
        "demo-en",
        "Mia",
        "Warm, curious, and brief. Speaks English.",
        (
            "Home at last. I'm exhausted: the release slipped again and I was on calls until nine.",
            "I just want to sleep. Tomorrow I have to walk my manager through the fix.",
        ),
        "Morning.",
    ),
    Scene(
        "zh",
        "demo-zh",
        "小梅",
        "温暖、好奇、说话简短。用中文回答。",
        (
            "终于到家了。我筋疲力尽：版本又延期了，电话会一直开到九点。",
            "只想睡觉。明天还得跟经理讲清楚修复方案。",
        ),
        "早上好。",
    ),
)


def evening_and_morning(now: dt.datetime) -> tuple[int, int]:
    """The next 21:30 still ahead, and 08:00 the day after it (ms): both after now, so that replies,
    stored at the later of now and ``ts``, keep the scene's times."""
    evening = now.replace(hour=21, minute=30, second=0, microsecond=0)
    if evening <= now:
        evening += dt.timedelta(days=1)
    morning = (evening + dt.timedelta(days=1)).replace(hour=8, minute=0)
    return int(evening.timestamp() * 1000), int(morning.timestamp() * 1000)


def _stamp(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000).strftime("%a %H:%M")


def _fresh_agent(client: Client, scene: Scene) -> None:
    with contextlib.suppress(NotFound):
        client.agent_delete(scene.agent_id)
    client.agent_create(
        scene.agent_id, name=scene.name, persona_init=scene.persona, config=DEMO_CONFIG
    )


def _say(
    client: Client, scene: Scene, sid: str, text: str, ts: int, explain: bool = False
) -> dict[str, Any]:
    print(f"[{_stamp(ts)}] you: {text}")
    print(f"{'':13}{scene.name}: ", end="", flush=True)
    stream = client.session_send(sid, text, ts=ts, explain=explain or None)
    for ev in stream:
        if ev.event == "text":
            print(ev.data.get("delta", ""), end="", flush=True)
    print()
    return dict(stream.result)


def run_scene(client: Client, scene: Scene, evening: int, morning: int) -> dict[str, Any]:
    """One language's evening and morning; the morning turn's explain context."""
    _fresh_agent(client, scene)
    print(f"\n=== {scene.lang}: {scene.name} ({scene.agent_id}) ===")
    sid = client.session_open(scene.agent_id, ts=evening)["session_id"]
    last = evening
    for i, line in enumerate(scene.evening):
        last = evening + i * 2 * MINUTE_MS
        _say(client, scene, sid, line, last)
    closed = client.session_close(sid, ts=last + 5 * MINUTE_MS, wait=True)
    remembered = (
        f"episode:{closed['episode_id']}" if closed["episode_id"] is not None else "nothing"
    )
    print(f"  (the evening session closes; remembered: {remembered})")
    for item in client.scheduler_list(scene.agent_id)["items"]:
        print(f"  (to ask about, from {_stamp(item['not_before'])}: {item['topic']})")
    print("  ... the night passes ...")
    sid = client.session_open(scene.agent_id, ts=morning)["session_id"]
    result = _say(client, scene, sid, scene.morning, morning, explain=True)
    print(cli_explain.summary(result.get("context")))
    client.session_close(sid, ts=morning + MINUTE_MS)
    return dict(result.get("context") or {})


def cmd_demo(args: argparse.Namespace) -> int:
    scenes = [s for s in SCENES if args.lang in ("both", s.lang)]
    evening, morning = evening_and_morning(dt.datetime.now().astimezone())
    with Client(args.socket, client_name="xaictl-demo") as client:
        model = client.status()["model"]
        print(f"xaid at {client.path}; model: {model['provider']} ({model['state']})")
        for scene in scenes:
            run_scene(client, scene, evening, morning)
    print(
        f"\nThe agents {', '.join(s.agent_id for s in scenes)} keep what they heard: "
        f"xaictl memory list {scenes[0].agent_id}; xaictl chat {scenes[0].agent_id} --at '+1d'",
        file=sys.stderr,
    )
    return 0


def register(sub: Any) -> None:
    demo = sub.add_parser(
        "demo", help="replay an evening and the next morning, showing what the agent recalls"
    )
    demo.add_argument(
        "--lang", choices=("en", "zh", "both"), default="both", help="which scenes (default both)"
    )
    demo.set_defaults(fn=cmd_demo)
