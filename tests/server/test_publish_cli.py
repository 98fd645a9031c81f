"""``bgclock publish-keys`` on a hosted server's store, and ``bgclock serve
--publish-to`` refusing to start without a good key (issue 37 §3)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bgclock.cli import main
from bgclock.server.edge.publishers import PublishKeys, stored_keys
from bgclock.store.connect import open_store
from tests._serve_proc import run_serve


def _kept(db: Path) -> dict[str, str]:
    async def read() -> dict[str, str]:
        store = open_store(str(db))
        await store.open()
        try:
            return await stored_keys(store)
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_key_is_printed_once_and_only_its_digest_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hosted.db"
    assert main(["publish-keys", "add", "lucca", "--db", str(db)]) == 0
    key = capsys.readouterr().out.split()[-1]
    kept = _kept(db)
    assert list(kept) == ["lucca"] and key not in str(kept)
    assert PublishKeys(kept).check(key) == "lucca"
    # NAME has one: refused unless --replace (then the old key stops publishing)
    assert main(["publish-keys", "add", "lucca", "--db", str(db)]) == 2
    assert "--replace" in capsys.readouterr().err
    assert main(["publish-keys", "add", "lucca", "--replace", "--db", str(db)]) == 0
    fresh = capsys.readouterr().out.split()[-1]
    keys = PublishKeys(_kept(db))
    assert keys.check(fresh) == "lucca" and keys.check(key) is None
    assert main(["publish-keys", "list", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "lucca\n"


@pytest.mark.parametrize("name", ["Lucca", "9lucca", "lucca/pisa", "x" * 33, ""])
def test_a_bad_name_is_refused_naming_it(tmp_path: Path, name: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["publish-keys", "add", name, "--db", str(tmp_path / "h.db")]) == 2
    assert "NAME" in capsys.readouterr().err


def test_serve_publish_to_needs_a_key_and_a_url(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "venue.db")]
    said = run_serve([*db, "--publish-to", "https://hosted.example"],
                     env={"BGCLOCK_PUBLISH_KEY": ""})
    assert said.returncode == 2 and "BGCLOCK_PUBLISH_KEY" in said.stderr
    said = run_serve([*db, "--publish-to", "https://hosted.example"],
                     env={"BGCLOCK_PUBLISH_KEY": "no-name-here"})
    assert said.returncode == 2 and "not a publishing key" in said.stderr
    said = run_serve([*db, "--publish-to", "ftp://hosted.example"],
                     env={"BGCLOCK_PUBLISH_KEY": "lucca.x"})
    assert said.returncode == 2 and "--publish-to" in said.stderr
