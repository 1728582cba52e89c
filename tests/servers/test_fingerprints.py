"""Fingerprints given for servers that report none: by URL in any spelling of the
server, or one for every server; refused when ambiguous or empty; a model file's
sha256, hashed again only when the file changes; entries a block adds go with it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import IO

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.servers import fingerprints
from debatebench_eval.servers.fingerprints import (
    FINGERPRINT_VAR,
    file_fingerprint,
    given_fingerprint,
    normalise,
)
from debatebench_eval.servers.urls import is_loopback, server_key, url_entries, url_entry

HEX = "ab" * 32


@pytest.mark.parametrize(
    ("url", "same"),
    [
        ("http://localhost:8080", "http://127.0.0.1:8080/v1"),
        ("http://127.0.0.1:8080/v1/", "http://[::1]:8080/v1"),
        ("http://user:secret@LOCALHOST:8080/v1", "http://127.0.0.1:8080"),
        ("http://gpu-box/llm/v1", "http://gpu-box:80/llm/"),
    ],
)
def test_one_server_has_one_key_whatever_its_spelling(url: str, same: str) -> None:
    assert server_key(url) == server_key(same)


def test_different_servers_have_different_keys() -> None:
    ports = {server_key(f"http://127.0.0.1:{port}/v1") for port in (8080, 8081)}
    assert len(ports) == 2
    assert server_key("http://gpu-box:8080/v1") != server_key("http://127.0.0.1:8080/v1")
    assert server_key("https://box/v1") != server_key("http://box/v1")


def test_loopback_is_this_machine_only() -> None:
    assert all(is_loopback(u) for u in ("http://localhost:1", "http://127.0.0.2", "http://[::1]"))
    assert not any(is_loopback(u) for u in ("http://10.0.0.2", "http://gpu-box", "http://0.0.0.0"))


def test_a_fingerprint_is_one_word_and_a_sha256_is_written_one_way() -> None:
    assert normalise(HEX.upper()) == f"sha256:{HEX}" == normalise(f"sha256:{HEX}")
    assert normalise(" my-model-v2 ") == "my-model-v2"
    for bad in ("", "two words"):
        with pytest.raises(ConfigError, match=FINGERPRINT_VAR):
            normalise(bad)


def test_a_servers_own_entry_wins_over_the_one_for_every_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FINGERPRINT_VAR, f"http://localhost:8080={HEX}\n  every-server")
    assert given_fingerprint("http://127.0.0.1:8080/v1") == f"sha256:{HEX}"
    assert given_fingerprint("http://127.0.0.1:9090/v1") == "every-server"
    monkeypatch.setenv(FINGERPRINT_VAR, f"http://localhost:8080={HEX}")
    assert given_fingerprint("http://127.0.0.1:9090/v1") is None
    monkeypatch.delenv(FINGERPRINT_VAR)
    assert given_fingerprint("http://127.0.0.1:8080/v1") is None


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("one two", "2 fingerprints for every server (one, two)"),
        ("http://127.0.0.1:8080=", "fingerprint ''"),
    ],
)
def test_an_ambiguous_or_empty_fingerprint_is_refused_naming_the_variable(
    value: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FINGERPRINT_VAR, value)
    with pytest.raises(ConfigError) as caught:
        given_fingerprint("http://127.0.0.1:8080/v1")
    assert str(caught.value).startswith(f"{FINGERPRINT_VAR}: {says}; expected ")


def test_a_model_file_is_hashed_again_only_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"weights one")
    first = file_fingerprint(path)
    assert first == "sha256:" + hashlib.sha256(b"weights one").hexdigest()
    opened: list[str] = []

    def counted_open(name: str, mode: str) -> IO[bytes]:
        opened.append(name)
        return path.open(mode)  # type: ignore[return-value]

    monkeypatch.setattr(fingerprints, "open", counted_open, raising=False)
    assert file_fingerprint(path) == first and not opened  # the same file: not read again
    path.write_bytes(b"weights two")  # same size, new contents and time
    os.utime(path, ns=(1, 1))
    assert file_fingerprint(path) == "sha256:" + hashlib.sha256(b"weights two").hexdigest()
    assert opened == [str(path.resolve())]


def test_an_entry_goes_with_its_block_and_leaves_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FINGERPRINT_VAR, "users-own")
    with url_entry(FINGERPRINT_VAR, "http://127.0.0.1:1/v1", "served"):
        monkeypatch.setenv(FINGERPRINT_VAR, os.environ[FINGERPRINT_VAR] + " http://b:2=later")
        by_server, bare = url_entries(os.environ[FINGERPRINT_VAR])
        assert by_server == {server_key("http://127.0.0.1:1"): "served", "http://b:2": "later"}
        assert bare == ["users-own"]
    assert os.environ[FINGERPRINT_VAR] == "users-own http://b:2=later"
    monkeypatch.delenv(FINGERPRINT_VAR)
    with url_entry(FINGERPRINT_VAR, "http://127.0.0.1:1/v1", "served"):
        pass
    assert FINGERPRINT_VAR not in os.environ
    refused = url_entry(FINGERPRINT_VAR, "http://127.0.0.1:1/v1", "two words")
    with pytest.raises(ValueError, match="no whitespace"), refused:
        pass
