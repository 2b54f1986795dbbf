"""An assistant turn that starts with the daemon's words: the chat template rendered by hand.

llama-cpp-python's chat completion always opens a fresh assistant turn, so a reply cannot be begun
for the model. Rendering the GGUF's own template (the same Jinja text llama-cpp-python would use)
with the generation prompt and appending the prefix gives the prompt a plain completion continues:
``<|im_start|>assistant\\n早。昨天你说`` and the model writes on from there. The tokens up to the
prefix are those of the chat path, so llama.cpp's prompt cache is reused the same way.

Only the file's own template is rendered: a ``llm.chat_format`` handler (function calling) has no
template text here, and then the request goes the ordinary way without its prefix.
"""

from __future__ import annotations

from typing import Any


def template_prompt(
    llm: Any, messages: list[dict[str, Any]], generation: bool = True
) -> str | None:
    """The rendered prompt up to and including the assistant header (``generation``; without it,
    up to the end of the last message: the start of a later prompt), or None without a template."""
    template = (getattr(llm, "metadata", None) or {}).get("tokenizer.chat_template")
    if not template:
        return None
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    def text(token: int) -> str:
        return str(llm._model.token_get_text(token)) if token != -1 else ""

    formatter = Jinja2ChatFormatter(
        template=template,
        eos_token=text(llm.token_eos()),
        bos_token=text(llm.token_bos()),
        add_generation_prompt=generation,
    )
    return str(formatter(messages=messages).prompt)  # type: ignore[arg-type]  # the OpenAI shape
