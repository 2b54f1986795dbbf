"""Logs are structured and never carry what the user said at the default level."""

from __future__ import annotations

import logging

from testkit.inproc import InProcessDaemon
from xaid.logs import LogfmtFormatter


def test_logfmt_lines_quote_and_carry_extra_fields() -> None:
    record = logging.LogRecord(
        "xaid.test", logging.WARNING, __file__, 1, 'refused "uid" %d', (4242,), None
    )
    record.peer_uid = 4242
    line = LogfmtFormatter().format(record)
    assert line.startswith("ts=") and " level=warning logger=xaid.test " in line
    assert 'msg="refused \\"uid\\" 4242"' in line and line.endswith("peer_uid=4242")


def test_user_words_never_reach_the_log_at_info(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("mia")
        sid = c.session_open("mia")["session_id"]
        c.session_send(sid, "my secret is hunter2, 我的密码是天王盖地虎").finish()
        c.session_close(sid, wait=True)
        c.call("memory.search", agent_id="mia", query="hunter2")
    daemon.stop()
    log = daemon.log()
    assert "level=info" in log and "xaid stopped" in log
    assert "hunter2" not in log and "天王盖地虎" not in log
