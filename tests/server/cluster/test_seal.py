"""The bus's seal (``cluster.seal``): a message counts only when a process
holding the cluster's secret sealed it, for that channel, lately, once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.server.cluster.seal import WINDOW_MS, Forged, Sealer

SECRET = b"a" * 40
CH = "bgclock:node:b"


def _pair() -> tuple[Sealer, Sealer]:
    return Sealer(SECRET, "a"), Sealer(SECRET, "b")


def test_a_sealed_message_opens_once_at_its_receiver() -> None:
    a, b = _pair()
    data = a.seal(CH, b'{"k":"msg"}', 1_000_000, "n1")
    assert b.open(CH, data, 1_000_100) == ("a", b'{"k":"msg"}')
    with pytest.raises(Forged, match="replay"):
        b.open(CH, data, 1_000_200)


def test_another_secret_is_refused() -> None:
    a = Sealer(b"b" * 40, "a")
    _, b = _pair()
    with pytest.raises(Forged, match="does not verify"):
        b.open(CH, a.seal(CH, b"{}", 5, "n"), 5)


def test_another_channel_is_refused() -> None:
    a, b = _pair()
    with pytest.raises(Forged, match="does not verify"):
        b.open("bgclock:all", a.seal(CH, b"{}", 5, "n"), 5)


def test_an_old_message_is_refused_even_with_a_fresh_nonce_never_seen() -> None:
    a, b = _pair()
    data = a.seal(CH, b"{}", 0, "n")
    with pytest.raises(Forged, match="too long ago"):
        b.open(CH, data, WINDOW_MS + 1)
    assert b.open(CH, a.seal(CH, b"{}", WINDOW_MS, "m"), 2 * WINDOW_MS) == ("a", b"{}")


@pytest.mark.parametrize("data", [b"", b"{}", b'{"k":"http","from":"a"}', b"bg1 a 1 n\n{}",
                                  b"bg1 a 1 n " + b"0" * 64 + b"\n{}", b"x" * 500 + b"\n"])
def test_an_unsealed_message_is_refused(data: bytes) -> None:
    _, b = _pair()
    with pytest.raises(Forged):
        b.open(CH, data, 1)


@given(payload=st.binary(max_size=200), at=st.integers(0, 2**40), flip=st.integers(0, 10_000))
def test_any_altered_byte_is_refused(payload: bytes, at: int, flip: int) -> None:
    a, b = _pair()
    data = bytearray(a.seal(CH, payload, at, "nonce"))
    i = flip % len(data)
    data[i] ^= 0x01
    try:
        node, got = b.open(CH, bytes(data), at)
    except Forged:
        return
    # a flipped bit may only land where it changes nothing that is proved
    raise AssertionError(f"an altered message opened: {node!r} {got!r}")


def test_the_nonces_kept_are_bounded_by_the_window() -> None:
    a, b = _pair()
    for i in range(1000):
        b.open(CH, a.seal(CH, b"{}", i * 1000, f"n{i}"), i * 1000)
    assert len(b._seen) <= 2 * WINDOW_MS // 1000 + 2


def test_one_message_heard_through_a_channel_and_a_pattern_opens_on_each_once() -> None:
    a, b = _pair()
    data = a.seal("bgclock:table:4", b"a{}", 10, "n")
    assert b.open("bgclock:table:4", data, 10) == ("a", b"a{}")
    assert b.open("bgclock:table:4", data, 10, via="bgclock:table:*") == ("a", b"a{}")
    for via in ("", "bgclock:table:*"):
        with pytest.raises(Forged, match="replay"):
            b.open("bgclock:table:4", data, 11, via=via)
