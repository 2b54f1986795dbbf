"""What the scheduler arms from a Morning set's evenings, without a chat model: a quick harness.

The Morning scene (perf/eval/morning.py) judges the 1.5B's reply, minutes per scene on a shared
2-core machine. Session 15 found the English misses were arming misses (no item, or the wrong kind:
a pet's operation read as a loss, a pending decision not armed), and those are decided before any
model speaks. So this plays each scene's history into a scratch daemon with the scripted provider
(it stands in for the chat model, which arming never calls), then reads the agent's items with
``scheduler.list`` and judges them at the scene's probe time:

- a scene that ``may_raise`` is ``armed`` when an item other than a loss's check-in is pending and
  due at the probe, and fire.py would not pass it over (``fire.holds_tension``: its source episode
  holds at least ``fire.MIN_TENSION``, or it is a feeling item whose episode is there; any other
  item is closed as "no open tension" at the first turn, so the first turn gets nothing from it;
  dev18's train half had one reported armed);
  when the event is over at the probe, no item due may be an ``ahead`` one (no "how do you feel
  about it", "good luck" after it): for the kind ``results`` (an event told in the past whose
  outcome is still to come) and for every scene that lists ``too_early`` (the words of a question
  before the event, which morning.py's tense rule holds the reply to: the scene is probed after
  its event, whatever its kind; arm19: until then the "ahead" items were judged for ``results``
  only, and a friend's operation probed the evening after passed with an "ahead" item due);
- a control (``may_raise`` false) is right when no such item is due at the probe: a death keeps its
  gentle ``loss`` item only, a do-not-ask and a closed matter arm nothing to ask about.

Beside it, what the first turn would get (``scheduler.check_in``, peeked at the probe time): the
suggestion ``picks`` the scene's matter when one of its ``picks_up`` words is in its topic. A loose
proxy (a word like 娃 is in an anecdote about the child's dinner too), but it sees the order of the
items, which ``armed`` does not: a later evening's small talk armed beside the operation told
before, and asked first (morning_dev36).

``python -m perf.eval.morning_arm SET [HALF]`` (SET as XAID_PERF_MORNING_SCENES: dev16, dev15, …)
prints each scene's items and the figures per half and language; SET ``all`` plays every dev set
that starts on 2026-01-05 in one daemon (about 500 scenes; with the model, about half an hour here)
and adds the figures of all the train halves and all the test halves together.
XAID_PERF_ARM_ONLY (scene ids, comma-separated) plays only those scenes of the set(s).
XAID_PERF_ARM_MODEL (a name of perf.kit.MODELS, e.g. qwen2.5-1.5b) plays them with that chat model
instead, for what consolidation asks it (the loss question, the matter weighed:
scheduler/weighed.py); XAID_PERF_ARM_ENV adds daemon settings ("XAID_SCHEDULER_ASK_MODEL=0").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from xaid.scheduler.fire import holds_tension

from ..kit import scratch_daemon, wait_model
from . import heldout_files
from .morning import PRIVATE, SCENE_SETS, model_path
from .replies import at, base_ms, scene_agent


@dataclass(frozen=True, slots=True)
class Armed:
    """One scene's verdict: the items due at its probe (scene, topic) and whether that is right."""

    scene: str
    lang: str
    half: str
    may_raise: bool
    due: tuple[tuple[str, str], ...]
    right: bool
    losses: (
        int  # loss check-ins armed (shown, not judged: the reply judge holds them to gentleness)
    )
    chosen: str | None = None  # the topic the first turn would get (scheduler.check_in, peeked)
    picks: bool = False  # it names the scene's matter (one of its ``picks_up`` words)


def _held(item: dict[str, Any], tension: Mapping[int, float]) -> bool:
    """Whether fire.py's tension gate lets the item through (fire._tension, on the wire): a
    manual item without an episode always, any other without one never."""
    episode = item.get("source_episode")
    if episode is None:
        return item["scene"] == "manual"
    return holds_tension(str(item["scene"]), tension.get(int(episode)))


def _due(
    items: list[dict[str, Any]], probe_ms: int, tension: Mapping[int, float]
) -> tuple[tuple[str, str], ...]:
    """The items the first turn at ``probe_ms`` could get: due, not a loss's, not passed over."""
    return tuple(
        (str(i["scene"]), str(i["topic"]))
        for i in items
        if i["scene"] != "loss"
        and i["not_before"] <= probe_ms <= i["not_after"]
        and _held(i, tension)
    )


def _tensions(client: Any, agent_id: str, items: list[dict[str, Any]]) -> dict[int, float]:
    episodes = {int(i["source_episode"]) for i in items if i.get("source_episode") is not None}
    return {
        e: float(client.call("memory.get", agent_id=agent_id, id=f"episode:{e}")["tension"])
        for e in episodes
    }


def after_event(scene: dict[str, Any]) -> bool:
    """The scene is probed after its event: its kind is ``results`` or it lists ``too_early``."""
    return scene.get("kind") == "results" or bool(scene.get("too_early"))


def judge(scene: dict[str, Any], due: tuple[tuple[str, str], ...]) -> bool:
    if not scene["may_raise"]:
        return not due
    if after_event(scene):
        return bool(due) and all(kind != "ahead" for kind, _ in due)
    return bool(due)


def picks(scene: dict[str, Any], topic: str | None) -> bool:
    """The suggestion names the scene's matter: one of its ``picks_up`` words is in the topic
    (the user's own words, quoted at its end). A control picks right when nothing is suggested
    but a loss's check-in, which asks nothing."""
    if not scene["may_raise"]:
        return topic is None or topic.startswith("loss")
    low = (topic or "").casefold()
    return any(w.casefold() in low for w in scene.get("picks_up", ()))


def play(scenes: list[dict[str, Any]], base: int) -> list[Armed]:
    env = {"XAID_LLM_PROVIDER": "scripted", "XAID_MEMORY_TIMEZONE": "UTC"}
    if model := os.environ.get("XAID_PERF_ARM_MODEL", ""):
        # the chat model consolidation asks (the loss question, the matter weighed, summaries)
        env.update(
            {
                "XAID_LLM_PROVIDER": "llama_cpp",
                "XAID_LLM_MODEL_PATH": model_path(model) or "",
                "OMP_WAIT_POLICY": "PASSIVE",
            }
        )
    for pair in filter(None, os.environ.get("XAID_PERF_ARM_ENV", "").split(",")):
        key, _, value = pair.partition("=")  # more daemon settings: "XAID_X=v,XAID_Y=w"
        env[key.strip()] = value.strip()
    out: list[Armed] = []
    with scratch_daemon(env) as daemon, daemon.client(timeout=600.0) as client:
        wait_model(client, 600, 0.05)
        for scene in scenes:
            agent_id = f"{scene['id']}-arm"
            scene_agent(client, scene, agent_id, "Mia", True, base)
            items = client.scheduler_list(agent_id, states=["pending"], limit=50)["items"]
            probe = at(base, scene["probe"])
            due = _due(items, probe, _tensions(client, agent_id, items))
            peek = client.scheduler_check_in(agent_id, ts=probe, peek=True)["item"]
            chosen = f"{peek['scene']}: {peek['topic']}" if peek else None
            out.append(
                Armed(
                    scene["id"],
                    scene["lang"],
                    str(scene.get("half", "")),
                    scene["may_raise"],
                    due,
                    judge(scene, due),
                    sum(i["scene"] == "loss" for i in items),
                    chosen,
                    picks(scene, chosen),
                )
            )
    return out


# ``all``: the dev sets whose day 0 is this Monday (one clock for one daemon)
ALL_FROM = "2026-01-05"


def every_dev_set() -> tuple[list[dict[str, Any]], int]:
    """The scenes of every dev Morning set starting on ``ALL_FROM``, each half named by its set
    ("dev30:train"), and their day 0: one daemon plays them all, the model loaded once."""
    scenes: list[dict[str, Any]] = []
    base = 0
    for name, path in SCENE_SETS.items():
        data = heldout_files.scenes(path)
        if name in PRIVATE or data.get("start") != ALL_FROM:
            continue
        base = base_ms(data)
        scenes += [{**s, "half": f"{name}:{s.get('half', '')}"} for s in data["scenes"]]
    return scenes, base


def main(argv: list[str]) -> None:
    chosen = argv[0] if argv else "dev16"
    if chosen in PRIVATE:
        raise SystemExit("held-out sets are run by the lead, not scene by scene")
    half = argv[1] if len(argv) > 1 else ""
    if chosen == "all":
        scenes, base = every_dev_set()
        scenes = [s for s in scenes if not half or s["half"].endswith(f":{half}")]
    else:
        data = heldout_files.scenes(SCENE_SETS[chosen])
        scenes = [s for s in data["scenes"] if not half or s.get("half") == half]
        base = base_ms(data)
    if only := {i for i in os.environ.get("XAID_PERF_ARM_ONLY", "").split(",") if i}:
        scenes = [s for s in scenes if s["id"] in only]  # the scenes a change can move
    judged = play(scenes, base)
    for a in judged:
        shown = "; ".join(f"{k}: {t[:70]}" for k, t in a.due) or "-"
        loss = " (+loss)" if a.losses else ""
        print(f"{'ok ' if a.right else 'BAD'} {a.half:5} {a.scene:28}{loss} {shown}")
        print(f"    {'picks' if a.picks else 'MISS '} {(a.chosen or '-')[:110]}")
    halves = sorted({a.half for a in judged})
    if chosen == "all":  # the sets' halves together, as well as each
        halves += sorted({a.half.split(":")[1] for a in judged} - set(halves))
    for h in halves:
        for lang in ("en", "zh"):
            cell = [a for a in judged if lang == a.lang and h in (a.half, a.half.split(":")[-1])]
            raise_ = [a for a in cell if a.may_raise]
            held = [a for a in cell if not a.may_raise]
            print(
                f"{h or '-'} {lang}: armed right {sum(a.right for a in raise_)}/{len(raise_)},"
                f" controls right {sum(a.right for a in held)}/{len(held)},"
                f" suggestion names the matter {sum(a.picks for a in raise_)}/{len(raise_)}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
