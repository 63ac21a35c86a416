"""The front door over HTTP and TLS (DESIGN.md#transport), against the real `touchdeck serve`: raw requests byte for
byte, TLS versions and suites with Python's ssl (OpenSSL), and what the local CA's key could or could not forge."""

import datetime
import ipaddress
import pathlib
import shutil
import socket
import ssl
import subprocess
import threading

import pytest
from cryptography import x509
from cryptography.x509 import verification

from livehelpers import ROOT, Daemon
from tlshelpers import Reader, connect, fetch, fingerprint, forge_leaf, request

# Old TLS versions are tried on purpose; Python's warnings about choosing them are expected.
pytestmark = pytest.mark.filterwarnings("ignore:ssl.TLSVersion:DeprecationWarning")

SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}

# A system policy as lax as some distributions ship: TLS 1.0 and every suite. The daemon must not inherit it.
LAX_OPENSSL_CONF = """openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_sect
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
MinProtocol = TLSv1
CipherString = ALL:@SECLEVEL=0
"""

CBC_SUITES = "ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES256-SHA384"


def lax_client(version=None, ciphers="ALL:@SECLEVEL=0"):
    """A client willing to speak anything, so only the server's policy decides."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.minimum_version = version or ssl.TLSVersion.TLSv1
    context.maximum_version = version or ssl.TLSVersion.MAXIMUM_SUPPORTED
    context.set_ciphers(ciphers)
    return context


def handshake(port, context):
    """(protocol, cipher) of a completed handshake, or the SSLError that ended it."""
    try:
        with connect(port, context=context) as sock:
            return sock.version(), sock.cipher()[0]
    except ssl.SSLError as error:
        return error


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """One daemon for the tests that only read from it (fewer starts, fewer chances of a port taken meanwhile)."""
    daemon = Daemon(home=tmp_path_factory.mktemp("host"))
    daemon.start()
    yield daemon
    daemon.stop()


# HTTP ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tls", [True, False], ids=["https", "http"])
def test_every_response_carries_the_security_headers(host, tls):
    paths = ["/setup", "/ca.crt", "/touchdeck.mobileconfig", "/no-such-file", "/app/main.js", "/"]
    for path in paths:
        response = fetch(host.port, path, tls=tls)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, f"{path}: {response.headers}"


def test_head_sends_the_headers_without_the_body_and_the_connection_goes_on(host):
    with connect(host.port) as sock:
        sock.sendall(request("HEAD", "/app/main.js") + request("GET", "/app/main.js"))
        reader = Reader(sock)
        head = reader.response(head=True)
        get = reader.response()
    assert head.status == 200 and get.status == 200
    assert head.headers["content-type"] == get.headers["content-type"] == "text/javascript; charset=utf-8"
    assert int(head.headers["content-length"]) == len(get.body) > 0
    assert get.body == (ROOT / "Web/app/main.js").read_bytes()


@pytest.mark.parametrize("tls", [True, False], ids=["https", "http"])
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_other_methods_get_405_and_the_connection_still_serves(host, method, tls):
    body = b"pin=123456&x=" + b"y" * 100_000 if method in ("POST", "PUT", "PATCH") else b""
    with connect(host.port, tls) as sock:
        sock.sendall(request(method, "/setup", body) + request("GET", "/ca.crt"))
        reader = Reader(sock)
        refused = reader.response()
        after = reader.response()
    assert refused.status == 405, refused
    assert refused.headers["allow"] == "GET, HEAD"
    assert refused.headers["content-security-policy"] == SECURITY_HEADERS["content-security-policy"]
    assert after.status == 200 and after.body.startswith(b"-----BEGIN CERTIFICATE-----")


def test_a_chunked_upload_gets_405_and_the_connection_closes(host):
    with connect(host.port) as sock:
        sock.sendall(b"POST /setup HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"5\r\nhello\r\n0\r\n\r\n")
        reader = Reader(sock)
        refused = reader.response()
        assert refused.status == 405 and refused.headers["allow"] == "GET, HEAD"
        assert reader.at_eof()


@pytest.mark.parametrize("tls", [True, False], ids=["https", "http"])
def test_connect_gets_405_instead_of_an_open_socket(host, tls):
    # lws hands CONNECT over as a raw connection; unanswered, it would stay open with nothing happening.
    with connect(host.port, tls) as sock:
        sock.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        reader = Reader(sock)
        refused = reader.response()
        assert refused.status == 405 and refused.headers["allow"] == "GET, HEAD"
        assert refused.headers["x-content-type-options"] == "nosniff"
        assert reader.at_eof()


def test_only_the_app_and_the_modules_it_imports_are_served(host):
    assert fetch(host.port, "/app/main.js").status == 200
    assert fetch(host.port, "/core/client.js").status == 200
    for path in ["/test/rules.test.js", "/test/fake-host.js", "/bench/crypto-bench.mjs", "/core/README.md",
                 "/app/../test/rules.test.js", "/app/%2e%2e/test/rules.test.js", "/%2e%2e/Makefile",
                 "/app/%2e%2e/%2e%2e/Makefile", "/app/..%2f..%2fMakefile"]:
        response = fetch(host.port, path)
        assert response.status == 404, f"{path}: {response}"


def test_links_out_of_the_web_root_are_not_followed(tmp_path):
    secret = tmp_path / "secret.js"
    secret.write_text("export const key = 'do not serve';\n")
    web = tmp_path / "web"
    shutil.copytree(ROOT / "Web/app", web / "app")
    shutil.copytree(ROOT / "Web/core", web / "core")
    (web / "app/leak.js").symlink_to(secret)
    (web / "app/outside").symlink_to(tmp_path)
    (web / "core/up.js").symlink_to("../../secret.js")
    host = Daemon(home=tmp_path / "home", env={"TOUCHDECK_WEB": str(web)})
    host.start()
    try:
        assert fetch(host.port, "/app/main.js").status == 200
        for path in ["/app/leak.js", "/app/outside/secret.js", "/core/up.js"]:
            response = fetch(host.port, path)
            assert response.status == 404 and b"do not serve" not in response.body, f"{path}: {response}"
    finally:
        host.stop()


# TLS -------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lax_host(tmp_path_factory):
    """The daemon under a system OpenSSL policy that would allow TLS 1.0 and CBC suites."""
    home = tmp_path_factory.mktemp("lax")
    conf = home / "openssl-lax.cnf"
    conf.write_text(LAX_OPENSSL_CONF)
    host = Daemon(home=home, env={"OPENSSL_CONF": str(conf)})
    host.start()
    yield host
    host.stop()


@pytest.fixture(scope="module")
def lax_control(lax_host):
    """A plain Python TLS server with the daemon's certificate and a lax policy: proof that the lax client
    below really can speak TLS 1.0 and CBC here, so a refusal by the daemon is the daemon's doing."""
    tls = lax_host.config_dir / "tls"
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.set_ciphers("ALL:@SECLEVEL=0")
    context.load_cert_chain(tls / "server.pem", tls / "server-key.pem")
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            try:
                with context.wrap_socket(conn, server_side=True):
                    pass
            except (ssl.SSLError, OSError):
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()
    thread.join(5)


@pytest.mark.parametrize("version", [ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1], ids=["tls1.0", "tls1.1"])
def test_tls_below_1_2_is_refused_whatever_the_system_allows(lax_host, lax_control, version):
    assert handshake(lax_control, lax_client(version))[0] in ("TLSv1", "TLSv1.1")
    assert isinstance(handshake(lax_host.port, lax_client(version)), ssl.SSLError)


def test_cbc_suites_are_refused_in_tls_1_2(lax_host, lax_control):
    client = lax_client(ssl.TLSVersion.TLSv1_2, CBC_SUITES + ":@SECLEVEL=0")
    assert handshake(lax_control, client)[1] in CBC_SUITES.split(":")
    assert isinstance(handshake(lax_host.port, client), ssl.SSLError)


def test_tls_1_2_and_1_3_use_aead_suites(lax_host):
    version, cipher = handshake(lax_host.port, lax_client(ssl.TLSVersion.TLSv1_2))
    assert version == "TLSv1.2" and ("GCM" in cipher or "CHACHA20" in cipher), cipher
    chacha = handshake(lax_host.port, lax_client(ssl.TLSVersion.TLSv1_2, "ECDHE-ECDSA-CHACHA20-POLY1305"))
    assert chacha == ("TLSv1.2", "ECDHE-ECDSA-CHACHA20-POLY1305")
    version, cipher = handshake(lax_host.port, lax_client(ssl.TLSVersion.TLSv1_3))
    assert version == "TLSv1.3" and cipher in ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
                                               "TLS_CHACHA20_POLY1305_SHA256")


# The local CA ----------------------------------------------------------------------------------------------


def trusting(tls_dir):
    """A strict client whose only trust anchor is the host's CA."""
    return ssl.create_default_context(cafile=str(tls_dir / "ca.pem"))


def serve_once(cert, key):
    """A TLS server presenting `cert` for one connection; returns its port."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        try:
            conn, _ = listener.accept()
            with context.wrap_socket(conn, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass
        finally:
            listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1]


def test_a_leaf_for_a_public_site_signed_with_the_ca_key_is_refused(host, tmp_path):
    tls = host.config_dir / "tls"
    ca = x509.load_pem_x509_certificate((tls / "ca.pem").read_bytes())
    store = verification.Store([ca])
    now = datetime.datetime.now(datetime.timezone.utc)
    for names, subject in [(["accounts.google.com"], x509.DNSName("accounts.google.com")),
                           (["8.8.8.8"], x509.IPAddress(ipaddress.ip_address("8.8.8.8")))]:
        cert, key = forge_leaf(tls, names, tmp_path)
        # OpenSSL's verifier (the one the daemon and Python's ssl use) …
        verify = subprocess.run(["openssl", "verify", "-CAfile", str(tls / "ca.pem"), str(cert)],
                                capture_output=True, text=True)
        assert verify.returncode != 0 and "permitted subtree violation" in verify.stdout + verify.stderr
        # … a second, independent one (cryptography's Rust verifier, webpki rules) …
        leaf = x509.load_pem_x509_certificate(cert.read_bytes())
        verifier = verification.PolicyBuilder().store(store).time(now).build_server_verifier(subject)
        with pytest.raises(verification.VerificationError):
            verifier.verify(leaf, [])
        # … and a TLS client trusting only the CA, talking to a server that presents the forged leaf.
        port = serve_once(cert, key)
        with pytest.raises(ssl.SSLCertVerificationError):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                trusting(tls).wrap_socket(raw, server_hostname=names[0])

    # The host's own certificate passes all three.
    own = x509.load_pem_x509_certificate((tls / "server.pem").read_bytes())
    verification.PolicyBuilder().store(store).time(now).build_server_verifier(
        x509.DNSName("localhost")).verify(own, [])
    assert subprocess.run(["openssl", "verify", "-CAfile", str(tls / "ca.pem"), str(tls / "server.pem")],
                          capture_output=True).returncode == 0
    with socket.create_connection(("127.0.0.1", host.port), timeout=10) as raw:
        with trusting(tls).wrap_socket(raw, server_hostname="localhost") as sock:
            assert sock.version() in ("TLSv1.2", "TLSv1.3")


def test_ca_fingerprint_in_pair_status_setup_page_and_profile(host):
    expected = fingerprint((host.config_dir / "tls/ca.pem").read_bytes())
    assert f"CA fingerprint (SHA-256): {expected}" in host.cli("pair")
    assert f"CA fingerprint (SHA-256): {expected}" in host.cli("status")
    assert expected in fetch(host.port, "/setup", tls=False).body.decode()
    assert f"SHA-256 fingerprint: {expected}" in fetch(host.port, "/touchdeck.mobileconfig", tls=False).body.decode()
    assert f"ca.sha256={expected}" in host.log()
    doctor = subprocess.run([str(pathlib.Path(host.process.args[0])), "doctor", "--config-dir",
                             str(host.config_dir)], env=host.env, capture_output=True, text=True).stdout
    assert f"ok   certificate: {host.config_dir / 'tls/ca.pem'}, SHA-256 {expected}" in doctor
