"""Issue 24 items 1 and 3 end to end (branch update10), through a real daemon (in-process, real
socket, real database, the real USE embedder; the scripted provider is never asked, the rules
decide): only the user's own, done change replaces what they said. Someone else's move leaves the
user's city current, the user's own move replaces it, an addition keeps both, an offer declined
changes nothing, and a relative's new car is no car of the user's (the fact rules read the clause
with no subject of its own as the relative's). English and Chinese."""

from __future__ import annotations

import pytest
from xaiclient import Client

from .test_supersede import DAY, T0, search, session, turns


def _told(c: Client, before: list[str], after: str) -> dict[str, str]:
    """A new agent told ``before`` on day 0 and ``after`` nine days later, both consolidated."""
    c.agent_create("mia", name="Kai")
    session(c, "mia", before, T0)
    session(c, "mia", [after], T0 + 9 * DAY)
    return turns(c, "mia")


HOME = {"en": "I live in Norwich.", "zh": "我住在苏州。"}
ASKED = {"en": "Where do I live?", "zh": "我现在住在哪个城市？"}
OTHERS = {
    "en": "My brother moved to Cardiff last week, he got a flat down by the bay.",
    "zh": "我表哥上周搬到南京了，在新街口附近租了房。",
}
OWN = {
    "en": "We left Norwich in March, we're renting a place in Cardiff now.",
    "zh": "三月份从苏州搬到南京了，现在租在新街口附近。",
}
NEW = {"en": "Cardiff", "zh": "南京"}
OLD = {"en": "Norwich", "zh": "苏州"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_someone_elses_move_leaves_the_users_city_current(client: Client, lang: str) -> None:
    said = _told(client, [HOME[lang]], OTHERS[lang])
    assert said[HOME[lang]] == "current", said
    found = search(client, "mia", ASKED[lang], T0 + 16 * DAY)
    assert any(OLD[lang] in t for t in found), found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_users_own_move_replaces_the_city(client: Client, lang: str) -> None:
    said = _told(client, [HOME[lang]], OWN[lang])
    assert said == {HOME[lang]: "superseded", OWN[lang]: "current"}, said
    found = search(client, "mia", ASKED[lang], T0 + 16 * DAY)
    assert found and NEW[lang] in found[0], found


ADDITIONS = [
    ("I have a cat called Pip.", "We adopted a dog too, a collie called Rex, the cat is sulking."),
    ("我养了一只猫叫团子。", "家里又多了一只柯基，叫可乐，团子天天躲着它。"),
]


@pytest.mark.parametrize(("before", "after"), ADDITIONS)
def test_an_addition_keeps_both(client: Client, before: str, after: str) -> None:
    assert _told(client, [before], after) == {before: "current", after: "current"}


DECLINED = [
    (
        "I work at a bakery in Leith.",
        "A café in Glasgow offered me a head baker job last week, I said no, I'm happy here.",
    ),
    ("我在一家书店上班。", "有家咖啡店想挖我过去当店长，我拒绝了，在书店挺开心的。"),
]


@pytest.mark.parametrize(("before", "after"), DECLINED)
def test_an_offer_declined_changes_nothing(client: Client, before: str, after: str) -> None:
    assert _told(client, [before], after)[before] == "current"


def test_a_relatives_new_car_is_no_car_of_the_users(client: Client) -> None:
    before = "我开的是一辆大众高尔夫。"
    said = _told(client, [before], "我爸把他的老捷达卖了，换了辆电车。")
    assert said[before] == "current", said
    facts = client.memory_list("mia", kind="fact", limit=100)["items"]
    mine = [f for f in facts if "高尔夫" in f["text"]]
    assert mine and all(f["status"] == "current" for f in mine), facts
    assert not any("电车" in f["text"] and "爸" not in f["text"] for f in facts), facts
