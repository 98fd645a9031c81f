"""``bgclock serve --certfile/--keyfile``: the table page over TLS.

With a certificate for the venue's name (here a self-signed one for
``tables.lan``, made by the test; Chromium told to accept it), every link is
``https://``, the table page registers its service worker and offers its web
manifest, and a reload with the network gone still opens the clock: the
service worker serves the page, the device's storage gives back the match and
its queue, and the queue is stored at its instants once the network is back.
Over ``http://`` the page does not try (``tests/test_web_reload.py``).  Bad
TLS options stop the server with one line naming the option.  Debian's
chromium only; waits are on state.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.web_kit import CHROMIUM, LiveServer, free_port, until
from tests._serve_proc import Serving, run_serve, start
from tests._web import Pages
from tests.test_web_device import engine_ready, hits
from tests.test_web_match import press, roll, wait

LAN = "tables.lan"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for ``tables.lan`` and its key (PEM files in ``folder``)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, LAN)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(LAN)]), critical=False)
            .sign(key, hashes.SHA256()))
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return certfile, keyfile


# ------------------------------------------------------------ the options

def test_a_certificate_without_its_key_is_refused(tmp_path: Path) -> None:
    certfile, _ = self_signed(tmp_path)
    done = run_serve(["--db", str(tmp_path / "b.db"), "--port", str(free_port()),
                      "--certfile", str(certfile)])
    assert done.returncode == 2
    assert "--certfile and --keyfile: give both" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_or_unreadable_certificate_is_refused(tmp_path: Path) -> None:
    certfile, keyfile = self_signed(tmp_path)
    done = run_serve(["--db", str(tmp_path / "b.db"), "--port", str(free_port()),
                      "--certfile", str(tmp_path / "none.pem"), "--keyfile", str(keyfile)])
    assert done.returncode == 2 and "--certfile: no such file" in done.stderr
    # the key of another certificate
    other = tmp_path / "other"
    other.mkdir()
    _, wrong_key = self_signed(other)
    done = run_serve(["--db", str(tmp_path / "b.db"), "--port", str(free_port()),
                      "--certfile", str(certfile), "--keyfile", str(wrong_key)])
    assert done.returncode == 2 and "cannot load the certificate and key" in done.stderr
    assert not (tmp_path / "b.db").exists()  # refused before the store is opened


# ------------------------------------------------------------ the page

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {LAN} 127.0.0.1",
            "--ignore-certificate-errors"])
        yield b
        b.close()


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[Serving, LiveServer, int]]:
    certfile, keyfile = self_signed(tmp_path)
    port = free_port()
    serving = start(["--db", str(tmp_path / "b.db"), "--port", str(port),
                     "--certfile", str(certfile), "--keyfile", str(keyfile),
                     "--allow-host", LAN, "--public-url", f"https://{LAN}:{port}"])
    try:
        yield serving, TlsLive(url=f"https://127.0.0.1:{port}", key=serving.key), port
    finally:
        serving.stop()


class TlsLive(LiveServer):
    """The test's HTTP client, trusting nothing but talking TLS to the test's server."""

    def api(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        import json
        import ssl
        import urllib.request

        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {key or self.key}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=10, context=ctx) as r:
            return json.loads(r.read())


def test_over_tls_the_page_installs_and_reloads_offline(
        tls_server: tuple[Serving, LiveServer, int], browser: Any) -> None:
    serving, live, port = tls_server
    assert serving.director_url.startswith(f"https://{LAN}:{port}/director?key=")
    table = live.table(players=["Ann", "Bob"], length=5)
    assert table["url"].startswith(f"https://{LAN}:{port}/t/")
    pages = Pages(browser)
    try:
        page = pages.open(table["url"])
        wait(page, "s.phase !== undefined")
        assert page.evaluate("window.isSecureContext") is True
        # the service worker registers and the page's files are in its cache
        until(page, "__bgclock.app.worker !== 'pending'", 10_000)
        assert page.evaluate("__bgclock.app.worker") == "registered"
        manifest = page.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
        assert manifest["display"] == "fullscreen" and manifest["scope"] == "/t/"
        assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
        engine_ready(page)
        roll(page, 6, 2)
        wait(page, "s.on_turn === 'A'")
        until(page, "__bgclock.conn.offset !== null && __bgclock.conn.pending.length === 0", 5000)
        # the Wi-Fi goes: a press, then a reload with no network at all
        page.context.set_offline(True)
        page.wait_for_selector("#conn[data-status='offline']", timeout=5000)
        press(page, "A")
        tap = int(page.evaluate("__bgclock.app.engine.pending.at(-1).at_ms"))
        ids = page.evaluate("__bgclock.conn.pending.map((p) => p.id)")
        page.reload()
        until(page, "!!window.__bgclock && __bgclock.app.restored !== null", 10_000)
        assert page.evaluate("!!navigator.serviceWorker.controller") is True
        page.wait_for_selector("#conn[data-restored='1'][data-queued='1']", timeout=5000)
        assert page.evaluate("__bgclock.display().state.on_turn") == "B"
        # the network is back: the press is stored at its instant, once
        page.context.set_offline(False)
        page.wait_for_selector("#conn[data-synced='1']", timeout=20_000)
        stored = hits(live, table["id"])
        assert [h["idem_key"] for h in stored] == ids
        assert abs(stored[0]["at_ms"] - tap) <= 250
    finally:
        pages.close()
    assert not pages.errors, pages.errors
