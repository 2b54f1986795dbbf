"""A request to forget said the way people talk, recognised by the learned classifier
(xaid/memory/forget_intent.py), through a real daemon (issue 24 items 2 and 7): a paraphrased
request in each language forgets what it refers to, and a look-alike with the same words forgets
nothing. Whether the classifier is sure or asks back first (its middle band), the words go: in the
band a "yes" to the question back carries the request out.

Real socket, real SQLite, real embedder (USE-multilingual-v3, the weights' own); the scripted
provider stands in for the model, since these tests are about what the daemon does with the user's
words, not how a model phrases its reply.
"""

from __future__ import annotations

from xaiclient import Client

from testkit.forgetting import everything, talk

DAY = 86_400_000
T0 = 1_764_536_400_000  # Sunday 2025-11-30 21:00 UTC


def test_a_paraphrased_request_in_each_language_forgets_and_a_lookalike_forgets_nothing(
    client: Client,
) -> None:
    client.agent_create("kai")
    kept = talk(client, "kai", ["I repotted the basil on the balcony today."], T0)
    told_en = talk(
        client,
        "kai",
        ["My brother Ollie lost 6,000 on online poker and he's hiding it from his wife."],
        T0 + 2 * DAY,
    )
    told_zh = talk(
        client, "kai", ["我表妹小禾偷偷去做了双眼皮手术，家里人都不知道。"], T0 + 3 * DAY
    )
    sid = client.session_open("kai", ts=T0 + 5 * DAY)["session_id"]
    turns = [
        ("I forgot my keys at the gym again, so annoying.", False),
        ("别忘了提醒我明天交水费。", False),
        ("ugh, the poker thing about my brother... pretend you never heard it, ok?", True),
        ("小禾做手术那档子事，你就当我没说过哈", True),
    ]
    ts = T0 + 5 * DAY
    for text, is_request in turns:
        ts += 60_000
        ctx = client.session_send(sid, text, ts=ts, explain=True).finish()["context"]
        forgotten = ctx.get("forgotten")
        if not is_request:
            assert forgotten is None, text
            continue
        assert forgotten is not None, text
        assert forgotten["probability"] is not None
        if not forgotten["sure"]:
            # The middle band: nothing gone yet, the words kept as said, the reply asks; a yes
            # carries it out, the request and the question back with it.
            assert forgotten["decision"] == "ask" and forgotten["deleted"] == 0
            assert text in repr(client.session_history(sid)["messages"])
            ts += 60_000
            yes = "yes" if forgotten["what"] and forgotten["what"].isascii() else "对"
            forgotten = client.session_send(sid, yes, ts=ts, explain=True).finish()["context"][
                "forgotten"
            ]
            assert forgotten is not None and forgotten["decision"] == "confirmed", forgotten
            assert text not in repr(client.session_history(sid)["messages"])
        else:
            assert forgotten["decision"] == "forget", forgotten
        assert forgotten["deleted"] > 0, forgotten
    later = T0 + 12 * DAY
    assert "6,000" not in everything(client, "kai", [told_en, sid], "brother poker", later)
    assert "双眼皮" not in everything(client, "kai", [told_zh, sid], "表妹手术", later)
    # The look-alikes were stored as said, and the unrelated session is all there.
    history = repr(client.session_history(sid)["messages"])
    assert "gym" in history and "交水费" in history
    assert "basil" in everything(client, "kai", [kept], "basil balcony", later)
