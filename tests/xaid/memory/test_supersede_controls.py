"""Precision of changes by meaning (issue 24 item 1, branch updates4), through a real daemon, the
real embedder and a real database: statements that look like a change and are not leave the
earlier statement current, in English and Chinese. Each of these made the earlier one history
before: a one-off ("tonight … instead", 今天…换了), a bounded stretch ("for now, until …", 先停了，
等…再说), the same value restated ("still at Camden", 还是在望京), both kept at once ("switching
between both", 两台换着用), and the same kind of thing in another setting ("At home I've switched…"
after "At the office I use…"; 周末… after 上班…). No model is consulted (the scripted provider's echo
is never read as a verdict)."""

from __future__ import annotations

import pytest
from xaiclient import Client

from xaid.memory import supersede

from .test_supersede import DAY, T0, memory_counters, session, turns

LOOK_ALIKES = [
    ("I take the tram to work.", "The tram was down tonight so I got a taxi home instead."),
    ("我平时坐地铁上班。", "今天地铁故障，换了打车去公司。"),
    (
        "I work at the Leeds office.",
        "They've moved me to the Bradford site for now, until the refurb is done.",
    ),
    ("我每天喝两杯咖啡。", "胃不好，咖啡先停了，改喝温水，等好了再说。"),
    ("I work from the Camden office.", "Still at Camden, the new lifts finally work."),
    ("我在望京的公司上班。", "还是在望京上班，楼下新开了家面馆，终于不用点外卖了"),
    ("I play the cello in an orchestra.", "Bought a ukulele, switching between both now."),
    ("我用华为手机。", "单位发了个iPhone，现在两台换着用"),
    ("At the office I use a standing desk.", "At home I've switched to a kneeling chair now."),
    ("上班我骑电动车。", "周末出去玩我现在改开车了"),
]


@pytest.mark.parametrize(("before", "after"), LOOK_ALIKES)
def test_a_look_alike_of_a_change_keeps_the_earlier_statement_current(
    client: Client, before: str, after: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [before], T0)
    session(client, "mia", [after], T0 + 6 * DAY)
    assert turns(client, "mia") == {before: "current", after: "current"}
    assert not memory_counters(client).get("change_rules")


def test_a_setting_is_what_a_statement_opens_with_in_both_languages() -> None:
    assert supersede.setting("At home I've switched to a kneeling chair now.") == {"home"}
    assert supersede.setting("For tea though I use normal milk.") >= {"tea"}
    assert "上班" in supersede.setting("上班我骑电动车。")
    assert supersede.setting("现在我每天跑步。") == set()  # a time word is not a setting
    assert supersede.setting("I switched to cycling.") == set()
    assert supersede.elsewhere("At home I use Windows now.", "At work I use a Mac.")
    assert not supersede.elsewhere("At work I've switched to Windows.", "At work I use a Mac.")
    assert not supersede.elsewhere("午饭我现在去面馆。", "午饭我常去吉野家。")


# A single-valued fact (where the user lives, where they work) drawn from a look-alike: the
# consistency check's rules would UPDATE the known value with it, and the turn that stated the
# known value became history with it.
FACT_LOOK_ALIKES = [
    (
        "I live in Hackney with my flatmate.",
        "For now I'm living in Croydon at my mum's until the boiler is fixed.",
    ),
    ("我在腾讯上班。", "下个月我就在阿里上班了。"),
]


@pytest.mark.parametrize(("before", "after"), FACT_LOOK_ALIKES)
def test_a_look_alike_never_replaces_a_single_valued_fact(
    client: Client, before: str, after: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [before], T0)
    session(client, "mia", [after], T0 + 6 * DAY)
    assert turns(client, "mia")[before] == "current"
    facts = client.memory_list("mia", kind="fact", status="all")["items"]
    assert facts and all(f["status"] == "current" for f in facts), facts
