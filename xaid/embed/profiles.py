"""Per-model similarity thresholds: a cosine means something different under each embedder.

Memory decides by cosine in several places (is this a recall hit, is this fact a paraphrase of
that one, does this denial deny that fact), and each cut was set by looking at one model's scores
on pairs it must tell apart. Another model spreads the same pairs differently: under
USE-multilingual-v3 a question and its answer score lower than under MiniLM (mean 0.37 vs 0.50)
while unrelated lines score the same (0.08 vs 0.07), so MiniLM's 0.3 would drop half of the answers.
A profile carries one model's cuts, measured by ``python -m perf.eval.embed_calibration`` and
explained in docs/memory.md ("Multilingual default: USE").

The numbers still live where they are used (xaid/memory/retrieve.py, xaid/memory/facts.py and
``memory.fast_path_cosine``); :data:`MINILM` restates them, so code can move to reading
``Memory.profile`` one threshold at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..config import ConfigError, MemoryConfig


@dataclass(frozen=True, slots=True)
class EmbedProfile:
    """One embedding model's cosine thresholds, and whether it reads Chinese."""

    name: str
    multilingual: bool
    """Whether the model reads Chinese. If not, mostly Chinese texts are not embedded and a Chinese
    query ranks by keywords only (``Memory.readable``): the model would score them all alike."""
    min_cosine: float
    """Recall: the least cosine that makes an item a hit for a Latin-script query (retrieve.MIN_COSINE)."""
    min_cosine_cjk: float
    """Recall: the same for a mostly Chinese query, when the model reads Chinese (retrieve.MIN_COSINE_CJK)."""
    opener_cosine: float
    """Recall: the least cosine for an opener ("Morning", "早"), which has nothing else to match on."""
    fast_path_cosine: float
    """Facts: a candidate whose 3 nearest facts are all below this is added with no LLM call
    (``memory.fast_path_cosine``)."""
    paraphrase: float
    """Facts: at or above, a neighbour is a near paraphrase, which outranks a different key (facts.PARAPHRASE)."""
    near_duplicate: float
    """Facts, rule fallback: a top neighbour at or above is the same fact, so NOOP (facts.NEAR_DUPLICATE)."""
    negation_near: float
    """Facts, rule fallback: a denial's top neighbour at or above is what it denies, so UPDATE
    (facts.NEGATION_NEAR)."""


# all-MiniLM-L6-v2 int8: the values the daemon has used since the first release (English only;
# 0.45 is the guess retrieve makes for a configured model that reads Chinese).
MINILM = EmbedProfile(
    "minilm",
    multilingual=False,
    min_cosine=0.3,
    min_cosine_cjk=0.45,
    opener_cosine=0.6,
    fast_path_cosine=0.6,
    paraphrase=0.8,
    near_duplicate=0.92,
    negation_near=0.75,
)
# USE-multilingual-v3, calibrated against MiniLM on the same pairs (docs/memory.md has the table); the Chinese
# recall cut raised from 0.25 to 0.3 after short Chinese openers pulled in unrelated memories.
USE = EmbedProfile(
    "use",
    multilingual=True,
    min_cosine=0.24,
    min_cosine_cjk=0.3,
    opener_cosine=0.57,
    fast_path_cosine=0.6,
    paraphrase=0.8,
    near_duplicate=0.89,
    negation_near=0.75,
)
PROFILES: dict[str, EmbedProfile] = {p.name: p for p in (MINILM, USE)}


def profile_for(cfg: MemoryConfig) -> EmbedProfile:
    """The profile of the model ``cfg`` selects, without loading it.

    An ONNX file in ``embed_model`` wins over ``embedder`` and gets MiniLM's cuts: nobody has
    measured it. ``embed_multilingual = true`` declares that the model reads Chinese, whichever it is.
    """
    if cfg.embed_model:
        profile = replace(MINILM, name="onnx")
    else:
        try:
            profile = PROFILES[cfg.embedder]
        except KeyError:
            raise ConfigError(
                f"memory.embedder must be one of {', '.join(sorted(PROFILES))}, "
                f"got {cfg.embedder!r}"
            ) from None
    return replace(profile, multilingual=True) if cfg.embed_multilingual else profile


__all__ = ["MINILM", "PROFILES", "USE", "EmbedProfile", "profile_for"]
