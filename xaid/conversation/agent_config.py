"""What an agent's ``config`` map may hold, checked once when it is written.

Known keys only: a typo such as ``tool`` for ``tools`` is an error, not a silently ignored key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import bad_params
from ..providers.base import ToolSpec

_TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
# Bounds that keep one agent's record (agent.get, a page of agent.list) well inside a frame, and its
# prompt inside a small model's context.
MAX_SYSTEM_PROMPT = 20_000
MAX_TOOLS = 32
MAX_TOOL_DESCRIPTION = 2_000
MAX_TOOL_SCHEMA = 16_000  # characters of the parameters' JSON
KNOWN = {
    "tools": "list of {name, description, parameters (JSON schema)}: client-side tools",
    "max_tokens": "integer: most tokens in one reply (overrides llm.max_tokens)",
    "temperature": "number: sampling temperature (overrides llm.temperature)",
    "system_prompt": "string: extra instructions placed after the persona",
    "mood": "boolean: track the user's mood and let it shape the tone (default true)",
    "memory": "boolean: remember across sessions (episodes, facts, persona; default true)",
}


def validate(config: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(config) - set(KNOWN))
    if unknown:
        raise bad_params(
            f"unknown agent config key(s): {', '.join(map(str, unknown))}; known: {', '.join(KNOWN)}"
        )
    if "tools" in config:
        tools = config["tools"]
        if not isinstance(tools, list) or len(tools) > MAX_TOOLS:
            raise bad_params(f"config.tools must be a list of at most {MAX_TOOLS} tools")
        seen: set[str] = set()
        for i, tool in enumerate(tools):
            if not isinstance(tool, dict):
                raise bad_params(f"config.tools[{i}] must be a map")
            name = tool.get("name")
            if not isinstance(name, str) or not _TOOL_NAME.match(name):
                raise bad_params(f"config.tools[{i}].name must match {_TOOL_NAME.pattern}")
            if name in seen:
                raise bad_params(f"config.tools: {name!r} is declared twice")
            seen.add(name)
            description = tool.get("description", "")
            if not isinstance(description, str) or len(description) > MAX_TOOL_DESCRIPTION:
                raise bad_params(
                    f"config.tools[{i}].description must be a string of at most "
                    f"{MAX_TOOL_DESCRIPTION} characters"
                )
            params = tool.get("parameters", {"type": "object", "properties": {}})
            if not isinstance(params, dict) or params.get("type", "object") != "object":
                raise bad_params(
                    f"config.tools[{i}].parameters must be a JSON schema of type object"
                )
            try:
                schema_size = len(json.dumps(params))
            except (ValueError, TypeError, RecursionError):
                raise bad_params(f"config.tools[{i}].parameters must be JSON") from None
            if schema_size > MAX_TOOL_SCHEMA:
                raise bad_params(
                    f"config.tools[{i}].parameters is longer than {MAX_TOOL_SCHEMA} characters as JSON"
                )
            if set(tool) - {"name", "description", "parameters"}:
                raise bad_params(f"config.tools[{i}] has unknown keys")
    if "max_tokens" in config and (
        not isinstance(config["max_tokens"], int)
        or isinstance(config["max_tokens"], bool)
        or config["max_tokens"] < 1
    ):
        raise bad_params("config.max_tokens must be a positive integer")
    if "temperature" in config and (
        not isinstance(config["temperature"], int | float)
        or isinstance(config["temperature"], bool)
        or not 0 <= config["temperature"] <= 2
    ):
        raise bad_params("config.temperature must be a number between 0 and 2")
    for switch in ("mood", "memory"):
        if switch in config and not isinstance(config[switch], bool):
            raise bad_params(f"config.{switch} must be a boolean")
    if "system_prompt" in config and (
        not isinstance(config["system_prompt"], str)
        or len(config["system_prompt"]) > MAX_SYSTEM_PROMPT
    ):
        raise bad_params(
            f"config.system_prompt must be a string of at most {MAX_SYSTEM_PROMPT} characters"
        )
    return config


@dataclass(frozen=True, slots=True)
class AgentConfig:
    """A validated config map as a turn reads it, with the defaults filled in. The map itself is
    what is stored and shown (``agent.get``): only known keys, so it round-trips unchanged."""

    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int | None = None  # None: llm.max_tokens
    temperature: float | None = None  # None: llm.temperature
    system_prompt: str = ""
    mood: bool = True
    memory: bool = True

    def reply_tokens(self, default: int) -> int:
        return self.max_tokens if self.max_tokens is not None else default

    def sampling_temperature(self, default: float) -> float:
        return float(self.temperature) if self.temperature is not None else default


def read(config: Mapping[str, Any]) -> AgentConfig:
    return AgentConfig(
        tools(config),
        config.get("max_tokens"),
        config.get("temperature"),
        config.get("system_prompt") or "",
        mood_enabled(config),
        memory_enabled(config),
    )


def mood_enabled(config: Mapping[str, Any]) -> bool:
    return bool(config.get("mood", True))


def memory_enabled(config: Mapping[str, Any]) -> bool:
    return bool(config.get("memory", True))


def tools(config: Mapping[str, Any]) -> tuple[ToolSpec, ...]:
    return tuple(
        ToolSpec(
            t["name"],
            t.get("description", ""),
            t.get("parameters", {"type": "object", "properties": {}}),
        )
        for t in config.get("tools", [])
    )
