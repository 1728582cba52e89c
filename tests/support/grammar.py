"""Does llama.cpp's own grammar engine let a model write this text?

The schema is turned into GBNF by llama-cpp-python's own converter
(`llama_cpp.llama_grammar.json_schema_to_gbnf`, what its server does with a
`json_object` schema) and run through llama.cpp's grammar sampler over the
embedded SmolLM2 vocabulary (loaded vocab-only: no weights are computed).
The text is tokenized and fed one token at a time: a token the grammar would
mask out (logit set to -inf by the sampler) means the grammar refuses the
text; at the end, the end-of-generation token must be allowed. Nothing is
generated, so the answer is exact and needs no model run. Tests that use it are
marked `embedded_model` (they skip without llama-cpp-python and the weights,
and fail so under CI).
"""

from __future__ import annotations

import ctypes
import json
from functools import cache
from typing import Any


def gbnf(schema: dict[str, Any]) -> str:
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    return str(json_schema_to_gbnf(json.dumps(schema)))


@cache
def _vocab() -> Any:
    import llama_cpp

    from debatebench_eval.cli.embedded import gguf_path

    llama_cpp.llama_backend_init()
    params = llama_cpp.llama_model_default_params()
    params.vocab_only = True
    model = llama_cpp.llama_model_load_from_file(str(gguf_path()).encode(), params)
    assert model, "the embedded model's vocabulary did not load"
    return llama_cpp.llama_model_get_vocab(model)


def _tokens(text: str) -> list[int]:
    import llama_cpp

    data = text.encode()
    room = len(data) + 16
    out = (llama_cpp.llama_token * room)()
    count = llama_cpp.llama_tokenize(_vocab(), data, len(data), out, room, False, True)
    assert count >= 0, "tokenizing failed"
    return list(out[:count])


def _allowed(sampler: Any, token: int) -> bool:
    import llama_cpp

    data = (llama_cpp.llama_token_data * 1)()
    data[0].id, data[0].logit, data[0].p = token, 0.0, 0.0
    candidates = llama_cpp.llama_token_data_array(data=data, size=1, selected=-1, sorted=False)
    llama_cpp.llama_sampler_apply(sampler, ctypes.byref(candidates))
    return bool(data[0].logit != float("-inf"))


class GrammarError(Exception):
    """llama.cpp could not parse the grammar (its server would fail the call)."""


def grammar_accepts(schema: dict[str, Any], reply: Any) -> bool:
    """Whether the grammar of `schema` lets a model write exactly `reply` (a text,
    or a value written as JSON)."""
    text = reply if isinstance(reply, str) else json.dumps(reply)
    import llama_cpp

    sampler = llama_cpp.llama_sampler_init_grammar(_vocab(), gbnf(schema).encode(), b"root")
    if not sampler:
        raise GrammarError("llama.cpp refused the grammar built from the schema")
    try:
        for token in _tokens(text):
            if not _allowed(sampler, token):
                return False
            llama_cpp.llama_sampler_accept(sampler, token)
        return _allowed(sampler, llama_cpp.llama_vocab_eos(_vocab()))
    finally:
        llama_cpp.llama_sampler_free(sampler)
