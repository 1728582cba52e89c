"""A model's family, for self-preference: judges favour their own family's outputs.

The rule, from the model's name alone (nothing is asked of a server):

1. The name is the part after the last `/` (`ollama/qwen3:8b` → `qwen3:8b`),
   lower-cased; its stem is its leading letters (`qwen3:8b`, `qwen2.5` →
   `qwen`; `gpt-4o` → `gpt`; `claude-3-5-haiku` → `claude`).
2. A stem in `LABS` is its maker's family (`gemma` and `gemini` → `google`,
   `gpt`, `o3` → `openai`), so one lab's models are one family whichever
   server runs them (`ollama/gpt-oss` and `openai/gpt-4o` are both `openai`).
3. Any other stem is its own family, except behind a provider that is one
   lab's own API (`openai/ft-custom` → `openai`), where the provider (the part
   before the first `/`) decides. A name that starts with no letter is its own
   stem (`7b-chat`).

Two judges of one family are not independent of each other either; this
module only says which family a model is, the gate and the diagnostics
decide what follows.
"""

from __future__ import annotations

import re

_STEM = re.compile(r"^[a-z]+")

# Stems of well-known open and hosted models, by the lab that trained them.
LABS = {
    "gpt": "openai", "o": "openai", "chatgpt": "openai", "davinci": "openai",
    "claude": "anthropic",
    "gemini": "google", "gemma": "google", "palm": "google",
    "qwen": "qwen", "qwq": "qwen",
    "llama": "meta", "codellama": "meta",
    "mistral": "mistral", "mixtral": "mistral", "ministral": "mistral", "codestral": "mistral",
    "phi": "microsoft",
    "deepseek": "deepseek",
    "grok": "xai",
    "command": "cohere", "aya": "cohere",
    "smollm": "huggingface",
    "granite": "ibm",
    "olmo": "allenai",
}  # fmt: skip
# Providers that serve one lab's models only: the provider is the family.
LAB_PROVIDERS = {
    "openai": "openai", "anthropic": "anthropic", "google": "google", "mistral": "mistral",
    "grok": "xai", "deepseek": "deepseek",
}  # fmt: skip


def family(model: str) -> str:
    """The family of a model name such as `ollama/qwen3:8b` (module docstring)."""
    # A name without a provider is its own provider: harmless, a lab's API name is
    # that lab's family either way.
    provider, name = model.partition("/")[0].lower(), model.rpartition("/")[2].lower()
    found = _STEM.match(name)
    stem = found[0] if found else name
    if stem in LABS:
        return LABS[stem]
    return LAB_PROVIDERS.get(provider, stem)


def same_family(a: str, b: str) -> bool:
    return family(a) == family(b)
