"""A role's model falls back to the main model, and Inspect's placeholder for no
model is refused with what to pass, recognised by its provider name."""

from __future__ import annotations

import pytest
from inspect_ai.model import get_model

from debatebench_eval.core.errors import DebateError
from debatebench_eval.servers.role_models import is_placeholder, role_model

from support.scripted import Script


def test_inspects_placeholder_is_told_from_a_real_model() -> None:
    assert is_placeholder(get_model("none"))
    assert not is_placeholder(Script("m").model())


def test_an_unbound_role_gets_the_default() -> None:
    main = Script("main").model()
    assert str(role_model("pro", default=main)) == str(main) == "mockllm/main"


def test_a_role_with_only_the_placeholder_says_how_to_give_one() -> None:
    with pytest.raises(DebateError) as caught:
        role_model("con", default=get_model("none"))
    assert str(caught.value) == (
        "no model for role 'con': pass --model, or --model-role con=PROVIDER/MODEL"
    )
    with pytest.raises(DebateError, match=r"^no model for the seat x: pass --model"):
        role_model("con", default=get_model("none"), who="the seat x")
