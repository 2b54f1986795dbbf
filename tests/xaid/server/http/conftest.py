from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.closing import close_all


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    """Every client a test made with ``kept`` is closed after it (warnings are errors here)."""
    yield
    close_all()
