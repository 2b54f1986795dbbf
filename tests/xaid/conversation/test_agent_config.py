"""The agent config as a turn reads it: defaults filled in, and a zero that is a value, not an absence."""

from __future__ import annotations

from xaid.conversation import agent_config


def test_an_empty_config_takes_the_daemon_defaults() -> None:
    read = agent_config.read({})
    assert read.mood and read.memory and read.tools == ()
    assert read.reply_tokens(512) == 512 and read.sampling_temperature(0.7) == 0.7


def test_a_zero_temperature_is_kept() -> None:
    read = agent_config.read(
        agent_config.validate(
            {
                "temperature": 0,
                "max_tokens": 40,
                "memory": False,
                "tools": [{"name": "lookup_weather"}],
            }
        )
    )
    assert read.sampling_temperature(0.7) == 0.0
    assert read.reply_tokens(512) == 40 and not read.memory and read.mood
    assert [t.name for t in read.tools] == ["lookup_weather"]
