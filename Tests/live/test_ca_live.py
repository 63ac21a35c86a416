"""The local CA across versions and address changes (DESIGN.md#local-ca), against the real `touchdeck serve`: a CA an
older version made (no name constraints) is set aside and replaced, and the user is told on every channel;
names and addresses outside the CA's constraints are left out of the certificate, and `doctor` says so."""

import ipaddress
import socket

import pytest
from cryptography import x509

from livehelpers import Daemon
from tlshelpers import fetch, fingerprint, fingerprints_in, write_authority


def constraints(pem_path):
    certificate = x509.load_pem_x509_certificate(pem_path.read_bytes())
    return certificate.extensions.get_extension_for_class(x509.NameConstraints)


def san_names(pem_path):
    certificate = x509.load_pem_x509_certificate(pem_path.read_bytes())
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(names.get_values_for_type(x509.DNSName)) | {str(a) for a in names.get_values_for_type(x509.IPAddress)}


def test_a_ca_from_an_older_version_is_set_aside_replaced_and_announced(tmp_path):
    host = Daemon(home=tmp_path)
    tls = host.config_dir / "tls"
    write_authority(tls)  # as versions before name constraints made it
    old_ca, old_key = (tls / "ca.pem").read_bytes(), (tls / "ca-key.pem").read_bytes()
    host.start()
    try:
        new_ca = (tls / "ca.pem").read_bytes()
        assert new_ca != old_ca
        assert constraints(tls / "ca.pem").critical
        kept = {p.name.split(".unconstrained-")[0]: p for p in tls.iterdir() if ".unconstrained-" in p.name}
        assert set(kept) == {"ca.pem", "ca-key.pem"}
        assert kept["ca.pem"].read_bytes() == old_ca and kept["ca-key.pem"].read_bytes() == old_key

        expected = fingerprint(new_ca)
        assert "devices must trust the new certificate authority" in host.log()
        status = host.cli("status")
        assert f"CA fingerprint (SHA-256): {expected}" in status
        assert "Certificate: devices must trust the new certificate authority" in status
        assert str(kept["ca.pem"]) in status
        page = fetch(host.port, "/setup", tls=False).body.decode()
        assert "This computer has a new certificate authority" in page
        assert fingerprints_in(page) == {expected}
        assert fingerprint(fetch(host.port, "/ca.crt", tls=False).body) == expected
    finally:
        host.stop()

    # The next start keeps the new CA and has nothing more to announce.
    host.start()
    try:
        assert (tls / "ca.pem").read_bytes() == new_ca
        assert "devices must trust" not in host.cli("status")
        assert "new certificate authority" not in fetch(host.port, "/setup", tls=False).body.decode()
    finally:
        host.stop()


def test_names_outside_the_constraints_are_left_out_and_doctor_says_so(tmp_path):
    hostname = socket.gethostname().lower()
    if hostname in ("", "localhost"):
        pytest.skip("this computer has no name of its own to leave out")
    host = Daemon(home=tmp_path)
    tls = host.config_dir / "tls"
    # A CA made when this computer was called only `localhost` and had only loopback addresses: its name and
    # every LAN address it has now lie outside.
    write_authority(tls, permitted=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_network("127.0.0.0/8")),
                                    x509.IPAddress(ipaddress.ip_network("::1/128"))])
    host.start()
    try:
        names = san_names(tls / "server.pem")
        assert {"localhost", "127.0.0.1", "::1"} <= names
        assert hostname not in names and f"{hostname.split('.')[0]}.local" not in names
        status = host.cli("status")
        assert "Certificate: left out of the server certificate" in status and hostname in status
        assert "left out of the server certificate" in host.log()
        doctor = host.cli("doctor", check=False)
        line = next(l for l in doctor.splitlines() if "certificate names:" in l)
        assert line.startswith("FAIL") and hostname in line and "devices use localhost" in line
        # The address `pair` prints is one the certificate carries.
        assert "https://localhost:" in host.cli("pair")
    finally:
        host.stop()
