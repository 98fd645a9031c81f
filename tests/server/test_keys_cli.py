"""``bgclock publish-keys`` and ``bgclock clubs`` on a hosted server's store
(issue 37 §3, §4), and ``bgclock serve --publish-to`` refusing to start
without a good key."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bgclock.cli import main
from bgclock.server.edge.named_keys import CLUB_DIRECTOR, PUBLISHING, Kind, NamedKeys, stored_keys
from bgclock.store.connect import open_store
from tests._serve_proc import run_serve


def _kept(db: Path, kind: Kind = PUBLISHING) -> dict[str, str]:
    async def read() -> dict[str, str]:
        store = open_store(str(db))
        await store.open()
        try:
            return await stored_keys(store, kind)
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
    assert NamedKeys(PUBLISHING, kept).check(key) == "lucca"
    # NAME has one: refused unless --replace (then the old key stops publishing)
    assert main(["publish-keys", "add", "lucca", "--db", str(db)]) == 2
    assert "--replace" in capsys.readouterr().err
    assert main(["publish-keys", "add", "lucca", "--replace", "--db", str(db)]) == 0
    fresh = capsys.readouterr().out.split()[-1]
    keys = NamedKeys(PUBLISHING, _kept(db))
    assert keys.check(fresh) == "lucca" and keys.check(key) is None
    assert main(["publish-keys", "list", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "lucca\n"


def test_a_clubs_director_key_is_its_own_kind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hosted.db"
    assert main(["clubs", "add", "lucca", "--db", str(db)]) == 0
    said = capsys.readouterr().out
    assert "Director key of the club lucca" in said
    key = said.split()[-1]
    clubs = NamedKeys(CLUB_DIRECTOR, _kept(db, CLUB_DIRECTOR))
    assert clubs.check(key) == "lucca" and key not in str(_kept(db, CLUB_DIRECTOR))
    # not a publishing key, and a publishing key is not a club's director's
    assert _kept(db) == {}
    assert main(["publish-keys", "add", "lucca", "--db", str(db)]) == 0
    publishing = capsys.readouterr().out.split()[-1]
    assert clubs.check(publishing) is None
    assert NamedKeys(PUBLISHING, _kept(db)).check(key) is None
    # the club's session: its name and a MAC a new key changes
    session = clubs.session("lucca")
    assert session.startswith("lucca.") and key.partition(".")[2] not in session
    assert clubs.check_session(session) == "lucca"
    assert clubs.check_session("lucca." + session.partition(".")[2][::-1]) is None
    assert clubs.check_session("pisa." + session.partition(".")[2]) is None
    assert main(["clubs", "add", "lucca", "--replace", "--db", str(db)]) == 0
    capsys.readouterr()
    assert NamedKeys(CLUB_DIRECTOR, _kept(db, CLUB_DIRECTOR)).check_session(session) is None
    assert main(["clubs", "add", "pisa", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["clubs", "list", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "lucca\npisa\n"


@pytest.mark.parametrize("command", ["publish-keys", "clubs"])
@pytest.mark.parametrize("name", ["Lucca", "9lucca", "lucca/pisa", "x" * 33, ""])
def test_a_bad_name_is_refused_naming_it(tmp_path: Path, name: str, command: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "add", name, "--db", str(tmp_path / "h.db")]) == 2
    err = capsys.readouterr().err
    assert "NAME" in err and err.startswith(f"bgclock {command}:")


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
