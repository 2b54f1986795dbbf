"""xaid.config: defaults, file, environment overrides, errors, and the generated docs.

Every ``load`` gets an explicit ``env`` dict, so the developer's own XAID_* variables never leak in.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from xaid import config
from xaid.config import Config, ConfigError, load, render_defaults, render_markdown

ROOT = Path(__file__).resolve().parents[2]
CONFIG_DOC = ROOT / "docs" / "configuration.md"
BEGIN, END = "<!-- keys:begin -->", "<!-- keys:end -->"


def write(tmp_path: Path, text: str, name: str = "xaid.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def sections(cfg: Config) -> Config:
    """The configuration without its ``source``, to compare with ``Config()``."""
    return dataclasses.replace(cfg, source="")


# --- defaults and lookup ------------------------------------------------------------------------


def test_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    cfg = load(path, env={})
    assert sections(cfg) == Config()
    assert cfg.source == str(path)
    assert cfg.llm.provider == "llama_cpp"
    assert cfg.llm.n_ctx == 4096
    assert cfg.server.allow_uids == []
    assert cfg.server.uvloop is True
    assert cfg.server.drain_seconds == 10.0


def test_no_file_anywhere_gives_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "etc" / "xaid.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    cfg = load(None, env={})
    assert cfg.source == "(defaults)"
    assert sections(cfg) == Config()


def test_lookup_prefers_the_system_file_over_the_user_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = tmp_path / "etc" / "xaid.toml"
    user = tmp_path / "config" / "xaid" / "xaid.toml"
    user.parent.mkdir(parents=True)
    user.write_text("[llm]\nn_ctx = 1024\n")
    monkeypatch.setattr(config, "SYSTEM_CONFIG", system)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert load(None, env={}).llm.n_ctx == 1024  # only the user file exists

    system.parent.mkdir()
    system.write_text("[llm]\nn_ctx = 2048\n")
    cfg = load(None, env={})
    assert (cfg.source, cfg.llm.n_ctx) == (str(system), 2048)


# --- the file, then the environment -----------------------------------------------------------------


def test_file_overrides_the_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[server]
allow_uids = [1000]
allow_gids = [977, 978]
uvloop = false
drain_seconds = 3          # an int where a float is expected is fine

[storage]
synchronous = "FULL"

[llm]
model_path = "/var/lib/xaid/models/qwen.gguf"
n_ctx = 8192
chat_format = "chatml-function-calling"

[log]
level = "debug"
""",
    )
    cfg = load(path, env={})
    assert cfg.server.allow_uids == [1000]
    assert cfg.server.allow_gids == [977, 978]
    assert cfg.server.uvloop is False
    assert cfg.server.drain_seconds == 3.0 and isinstance(cfg.server.drain_seconds, float)
    assert cfg.storage.synchronous == "FULL"
    assert cfg.llm.model_path == "/var/lib/xaid/models/qwen.gguf"
    assert cfg.llm.n_ctx == 8192
    assert cfg.llm.chat_format == "chatml-function-calling"
    assert cfg.log.level == "debug"
    # untouched keys keep their defaults
    assert cfg.server.max_connections == Config().server.max_connections
    assert cfg.llm.provider == "llama_cpp"


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[llm]\nn_ctx = 8192\n\n[server]\nallow_uids = [5]\nuvloop = true\n")
    env = {
        "XAID_LLM_N_CTX": "2048",
        "XAID_SERVER_ALLOW_UIDS": "1000,1001",
        "XAID_SERVER_UVLOOP": "false",
        "XAID_SERVER_DRAIN_SECONDS": "2.5",
        "XAID_STORAGE_STATE_DIR": "/srv/xaid",
    }
    cfg = load(path, env=env)
    assert cfg.llm.n_ctx == 2048 and type(cfg.llm.n_ctx) is int
    assert cfg.server.allow_uids == [1000, 1001]
    assert cfg.server.uvloop is False
    assert cfg.server.drain_seconds == 2.5
    assert cfg.storage.state_dir == "/srv/xaid"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1", True), ("true", True), ("YES", True), ("0", False), ("False", False), ("no", False)],
)
def test_environment_booleans(tmp_path: Path, text: str, expected: bool) -> None:
    assert load(write(tmp_path, ""), env={"XAID_SERVER_UVLOOP": text}).server.uvloop is expected


@pytest.mark.parametrize("text", ["1000,1001", "1000 1001", " 1000 , 1001 "])
def test_environment_lists(tmp_path: Path, text: str) -> None:
    assert load(write(tmp_path, ""), env={"XAID_SERVER_ALLOW_UIDS": text}).server.allow_uids == [
        1000,
        1001,
    ]


def test_environment_without_a_file(tmp_path: Path) -> None:
    cfg = load(
        write(tmp_path, ""),
        env={"XAID_LLM_PROVIDER": "scripted", "HOME": "/x", "XAID_SOCKET": "/s"},
    )
    assert (
        cfg.llm.provider == "scripted"
    )  # XAID_SOCKET (xaictl's variable) names no section: ignored


def test_the_api_key_variable_is_not_a_config_key(tmp_path: Path) -> None:
    """XAID_LLM_API_KEY (the default llm.api_key_env) shares the prefix: it must not be rejected."""
    path = write(tmp_path, "")
    cfg = load(path, env={"XAID_LLM_API_KEY": "sk-secret"})
    assert "sk-secret" not in repr(cfg)
    renamed = {"XAID_LLM_API_KEY_ENV": "XAID_LLM_TOKEN", "XAID_LLM_TOKEN": "sk-secret"}
    assert load(path, env=renamed).llm.api_key_env == "XAID_LLM_TOKEN"
    named_in_file = write(tmp_path, '[llm]\napi_key_env = "XAID_LLM_BEARER"\n', "named.toml")
    assert (
        load(named_in_file, env={"XAID_LLM_BEARER": "sk-secret"}).llm.api_key_env
        == "XAID_LLM_BEARER"
    )


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("[gpu]\nlayers = 10\n", ["unknown section", "gpu"]),
        ("server = 1\n", ["[server]", "table"]),
        ("[llm]\nn_ctxx = 1\n", ["[llm] n_ctxx", "unknown key"]),
        ('[llm]\nn_ctx = "4096"\n', ["[llm] n_ctx", "expected int"]),
        ("[llm]\nn_ctx = 4096.0\n", ["[llm] n_ctx", "expected int"]),
        ('[server]\nuvloop = "no"\n', ["[server] uvloop", "expected bool"]),
        ("[server]\nallow_uids = 1000\n", ["[server] allow_uids", "list"]),
        ('[server]\nallow_uids = ["root"]\n', ["[server] allow_uids", "expected int"]),
        ('[llm]\nprovider = "gpt"\n', ["[llm] provider", "gpt", "llama_cpp"]),
        ('[log]\nlevel = "verbose"\n', ["[log] level", "verbose"]),
        ('[storage]\nsynchronous = "normal"\n', ["[storage] synchronous"]),
        ('[memory]\nfusion = "max"\n', ["[memory] fusion", "max", "rrf"]),
        ('[server]\nsocket_mode = "0999"\n', ["socket_mode", "octal"]),
        ("[server]\nmax_connections = 0\n", ["server.max_connections", "positive"]),
        ("[llm]\nn_ctx = -1\n", ["llm.n_ctx", "positive"]),
        ("[llm]\nmax_queue = 0\n", ["llm.max_queue", "positive"]),
        (
            '[llm]\nmodel = "qwen-7b"\n',
            ["llm.model", "qwen-7b", "qwen2.5-coder-1.5b", "smollm2-135m"],
        ),
        ("[llm]\nstate_cache_mb = -1\n", ["llm.state_cache_mb"]),
        ("[llm]\nstate_cache_mb = 1000000\n", ["llm.state_cache_mb", "16384"]),
        ("[server]\nmax_frame_bytes = 100\n", ["server.max_frame_bytes", "1024"]),
        ("[llm\nn_ctx = 1\n", ["not valid TOML"]),
        ("[llm]\nn_ctx = \n", ["not valid TOML"]),
    ],
)
def test_bad_file_raises_config_error_naming_file_and_key(
    tmp_path: Path, text: str, needles: list[str]
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path, env={})
    message = str(caught.value)
    assert str(path) in message
    for needle in needles:
        assert needle in message
    assert "\n" not in message


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="no such file") as caught:
        load(path, env={})
    assert str(path) in str(caught.value)


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'[llm]\nmodel = "caf\xe9"\n')
    with pytest.raises(ConfigError, match="cannot read") as caught:
        load(path, env={})
    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("env", "needles"),
    [
        ({"XAID_LLM_N_CTX": "lots"}, ["XAID_LLM_N_CTX", "n_ctx", "expected int"]),
        ({"XAID_SERVER_UVLOOP": "maybe"}, ["XAID_SERVER_UVLOOP", "uvloop", "expected bool"]),
        ({"XAID_SERVER_ALLOW_UIDS": "1000,alice"}, ["XAID_SERVER_ALLOW_UIDS", "allow_uids"]),
        ({"XAID_LLM_NCTX": "2048"}, ["XAID_LLM_NCTX", "unknown key"]),
        ({"XAID_LLM_PROVIDER": "gpt"}, ["XAID_LLM_PROVIDER", "provider", "gpt"]),
        ({"XAID_LLM_MAX_TOKENS": "0"}, ["llm.max_tokens", "positive"]),
    ],
)
def test_bad_environment_raises_config_error_naming_variable(
    tmp_path: Path, env: dict[str, str], needles: list[str]
) -> None:
    with pytest.raises(ConfigError) as caught:
        load(write(tmp_path, ""), env=env)
    for needle in needles:
        assert needle in str(caught.value)


# --- generated example file and docs ------------------------------------------------------------------

_KEY_LINE = re.compile(r"^# (\w+ = .*)$")


def uncomment(text: str) -> str:
    return "\n".join(
        m.group(1) if (m := _KEY_LINE.match(line)) else line for line in text.splitlines()
    )


def test_render_defaults_is_valid_toml_that_loads_back_to_the_defaults(tmp_path: Path) -> None:
    rendered = render_defaults()
    tomllib.loads(rendered)  # valid as shipped (everything commented)
    active = uncomment(rendered)
    raw = tomllib.loads(active)
    assert set(raw) == set(config.SECTIONS)
    for name, cls in config.SECTIONS.items():
        assert set(raw[name]) == {f.name for f in dataclasses.fields(cls)}, name
    cfg = load(write(tmp_path, active), env={})
    assert sections(cfg) == Config()


def test_print_config_prints_render_defaults() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "xaid", "--print-config"],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=True,
    )
    assert result.stdout == render_defaults() + "\n"


def test_configuration_doc_table_matches_the_code() -> None:
    text = CONFIG_DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, (
        f"{CONFIG_DOC} must hold the key markers once"
    )
    table = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")
    assert table == render_markdown(), (
        "docs/configuration.md is out of date: replace the table between the markers with the output of "
        "python -c 'from xaid.config import render_markdown; print(render_markdown())'"
    )


def test_every_key_is_documented() -> None:
    for name, cls in config.SECTIONS.items():
        for f in dataclasses.fields(cls):
            assert f.metadata.get("doc"), f"{name}.{f.name} has no documentation"
            assert "|" not in f.metadata["doc"], (
                f"{name}.{f.name}: '|' would break the Markdown table"
            )


# --- the command line ---------------------------------------------------------------------------------


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}


def _check_config(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xaid", "--check-config", "--config", str(path)],
        capture_output=True,
        text=True,
        env=_clean_env(),
        timeout=60,
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[llm]\nprovider = "gpt"\n', "provider"),
        ("[server]\nmax_inflight = 0\n", "max_inflight"),
        ("[llm\n", "TOML"),
    ],
)
def test_check_config_rejects_a_bad_file_in_one_line(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text)
    result = _check_config(path)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert key in lines[0] and str(path) in lines[0]
    assert result.stdout == ""


def test_check_config_rejects_a_missing_file(tmp_path: Path) -> None:
    result = _check_config(tmp_path / "missing.toml")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "missing.toml" in result.stderr


def test_check_config_accepts_a_good_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[llm]\nprovider = "scripted"\nn_ctx = 2048\n')
    result = _check_config(path)
    assert result.returncode == 0, result.stderr
    assert "configuration OK" in result.stdout and str(path) in result.stdout


# --- errors name what the user wrote -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value", "key"),
    [
        ("XAID_SERVER_IDLE_SECONDS", "-1", "server.idle_seconds"),
        ("XAID_LLM_N_CTX", "0", "llm.n_ctx"),
        ("XAID_MEMORY_TIMEZONE", "Mars/Olympus", "memory.timezone"),
        ("XAID_MOOD_LEARNING_RATE", "2", "mood.learning_rate"),
    ],
)
def test_a_bad_value_from_the_environment_names_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, key: str
) -> None:
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "etc" / "xaid.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for path in (None, write(tmp_path, '[log]\nlevel = "info"\n')):
        with pytest.raises(ConfigError) as caught:
            load(path, env={variable: value})
        message = str(caught.value)
        assert (
            message.startswith(f"{variable}: {key}")
            and "(defaults)" not in message
            and str(tmp_path) not in message
        )


def test_a_bad_value_from_the_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[server]\nidle_seconds = -5\n")
    with pytest.raises(ConfigError) as caught:
        load(path, env={"XAID_LLM_N_CTX": "2048"})
    assert str(caught.value).startswith(f"{path}: server.idle_seconds")


def test_check_config_says_what_it_read(tmp_path: Path) -> None:
    if config.SYSTEM_CONFIG.exists():
        pytest.skip("this machine has a system configuration file")
    env = {**_clean_env(), "XDG_CONFIG_HOME": str(tmp_path / "none"), "XAID_LLM_N_CTX": "2048"}
    result = subprocess.run(
        [sys.executable, "-m", "xaid", "--check-config"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert (
        result.stdout.strip()
        == "xaid: configuration OK (built-in defaults; environment: XAID_LLM_N_CTX)"
    )
    bad = subprocess.run(
        [sys.executable, "-m", "xaid", "--check-config"],
        capture_output=True,
        text=True,
        env={**env, "XAID_SERVER_MAX_INFLIGHT": "0"},
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.startswith(
        "xaid: bad configuration: XAID_SERVER_MAX_INFLIGHT:"
    )


def test_llm_model_names_a_catalogue_entry_unless_model_path_or_another_provider_decides() -> None:
    assert load(None, env={}).llm.model == "qwen2.5-coder-1.5b"
    assert (
        load(None, env={"XAID_LLM_MODEL": "qwen2.5-coder-0.5b"}).llm.model == "qwen2.5-coder-0.5b"
    )
    # llm.model_path wins, so the name is not looked up; an endpoint has its own model names
    assert (
        load(None, env={"XAID_LLM_MODEL": "x", "XAID_LLM_MODEL_PATH": "/m.gguf"}).llm.model_path
        == "/m.gguf"
    )
    assert (
        load(None, env={"XAID_LLM_MODEL": "gpt-4o-mini", "XAID_LLM_PROVIDER": "openai"}).llm.model
        == "gpt-4o-mini"
    )
    with pytest.raises(
        ConfigError, match=r"XAID_LLM_MODEL: llm\.model unknown model .gpt-4o-mini."
    ):
        load(None, env={"XAID_LLM_MODEL": "gpt-4o-mini"})


# --- http.listen ------------------------------------------------------------------------------------


def test_http_listen_is_read_as_a_list_of_endpoints() -> None:
    from xaid.config import HttpEndpoint, listen_spec

    assert listen_spec("unix:, tcp:127.0.0.1:8765 ,unix:/run/x/h.sock,tcp:[::1]:9") == [
        HttpEndpoint("unix"),
        HttpEndpoint("tcp", host="127.0.0.1", port=8765),
        HttpEndpoint("unix", path="/run/x/h.sock"),
        HttpEndpoint("tcp", host="::1", port=9),
    ]
    assert listen_spec("") == []
    assert listen_spec("tcp:localhost:1")[0].loopback
    assert not listen_spec("tcp:0.0.0.0:8080")[0].loopback  # allowed: the user wrote it out
    assert str(listen_spec("tcp:[::1]:9")[0]) == "tcp:[::1]:9"


@pytest.mark.parametrize(
    "bad",
    ["http://127.0.0.1:80", "tcp::8080", "tcp:*:8080", "tcp:127.0.0.1:http", "tcp:127.0.0.1:70000"],
)
def test_a_bad_http_listen_names_the_variable(bad: str) -> None:
    with pytest.raises(ConfigError, match="XAID_HTTP_LISTEN"):
        load(env={"XAID_HTTP_LISTEN": bad})
