"""models.list: the model catalogue, which model the daemon is configured for, and what is installed."""

from __future__ import annotations

from typing import Any

import anyio

from ... import catalogue as models
from ...paths import state_dir
from ...providers import model_files
from ..dispatch import Call, method


def _listing(call: Call) -> dict[str, Any]:
    cfg = call.app.config
    directory = state_dir(cfg) / "models"
    uses_catalogue = cfg.llm.provider == "llama_cpp" and not cfg.llm.model_path
    configured = models.get(cfg.llm.model).name if uses_catalogue else None
    return {
        "configured": configured,
        "model_path": cfg.llm.model_path or None,
        "models_dir": str(directory),
        "models": [
            model_files.status(spec, directory).to_wire(configured or "")
            for spec in models.CATALOGUE
        ],
    }


@method("models.list")
async def list_models(call: Call) -> dict[str, Any]:
    call.params.done()
    return await anyio.to_thread.run_sync(_listing, call)
