"""Replies as a schema-following server sees them: the literal instance, and the grammar.

`first_instance` is the reply a model gives that follows a schema at its most
literal. `Grammar` is the grammar llama-cpp-python's own converter builds from a
schema, applied token by token with the embedded model's vocabulary (loaded
without its weights), so a test can ask whether that server could emit a text.
"""

from __future__ import annotations

import ctypes
import json
import math
from typing import Any


def first_instance(schema: dict[str, Any]) -> Any:
    """The first enum value, the least value of a range, the fewest items allowed, a
    short word for text (protocols.echo.schema_instance, honouring minItems)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {key: first_instance(sub) for key, sub in schema["properties"].items()}
    if kind == "array":
        return [first_instance(schema["items"]) for _ in range(schema.get("minItems", 0))]
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        return schema.get("minimum", 0)
    return "echo"


class Grammar:
    """llama-cpp-python's grammar of a schema, over SmolLM2's vocabulary."""

    def __init__(self, gguf: str) -> None:
        import llama_cpp

        self._llama = llama_cpp
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True  # the tokenizer only: no weights are read
        self._model = llama_cpp.llama_model_load_from_file(gguf.encode(), params)
        if not self._model:
            raise RuntimeError(f"could not load the vocabulary of {gguf}")
        self._vocab = llama_cpp.llama_model_get_vocab(self._model)

    def gbnf(self, schema: dict[str, Any]) -> str:
        from llama_cpp.llama_grammar import json_schema_to_gbnf

        return json_schema_to_gbnf(json.dumps(schema))

    def accepts(self, schema: dict[str, Any], reply: Any) -> bool:
        """Whether a server holding generation to the schema's grammar could emit the
        reply (as `json.dumps` writes it, UTF-8 unescaped as a model writes it), to its end."""
        lib = self._llama
        sampler = lib.llama_sampler_init_grammar(self._vocab, self.gbnf(schema).encode(), b"root")
        if not sampler:  # llama.cpp could not parse the grammar: the server would fail
            raise ValueError("llama.cpp refused the grammar built from this schema")
        try:
            for token in self._tokens(json.dumps(reply, ensure_ascii=False)):
                if not self._allowed(sampler, token):
                    return False
                lib.llama_sampler_accept(sampler, token)
            return self._allowed(sampler, lib.llama_vocab_eos(self._vocab))
        finally:
            lib.llama_sampler_free(sampler)

    def _tokens(self, text: str) -> list[int]:
        raw = text.encode()
        buffer = (self._llama.llama_token * (len(raw) + 8))()
        count = self._llama.llama_tokenize(
            self._vocab, raw, len(raw), buffer, len(buffer), False, False
        )
        return list(buffer[:count])

    def _allowed(self, sampler: Any, token: int) -> bool:
        lib = self._llama
        data = (lib.llama_token_data * 1)()
        data[0].id, data[0].logit, data[0].p = token, 0.0, 0.0
        candidates = lib.llama_token_data_array(data=data, size=1, selected=-1, sorted=False)
        lib.llama_sampler_apply(sampler, ctypes.byref(candidates))
        return not math.isinf(data[0].logit)
