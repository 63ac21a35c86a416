"""Raw HTTP over TLS or plain TCP, and certificates made with the `cryptography` package, for the tests of
the front door (DESIGN.md#transport): what the daemon sends byte for byte, and what a holder of its CA
key could forge."""

import datetime
import hashlib
import ipaddress
import re
import socket
import ssl

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

TIMEOUT = 10


def insecure_context():
    """A client that skips verification: for tests about HTTP, not about trust."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def connect(port, tls=True, context=None, server_hostname="localhost"):
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    if tls:
        sock = (context or insecure_context()).wrap_socket(sock, server_hostname=server_hostname)
    sock.settimeout(TIMEOUT)
    return sock


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def __repr__(self):
        return f"Response({self.status}, {self.headers}, {self.body[:60]!r})"


class Reader:
    """Reads HTTP/1.1 responses off one connection; `head=True` for a response to HEAD (headers only)."""

    def __init__(self, sock):
        self.sock, self.buffer, self.closed = sock, b"", False

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            self.closed = True
            raise EOFError("connection closed")
        self.buffer += data

    def response(self, head=False):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        raw, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = 0 if head else int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Response(status, headers, body)

    def at_eof(self):
        """Whether the peer closes the connection with nothing more to read."""
        if self.buffer:
            return False
        try:
            return self.sock.recv(1) == b""
        except (ConnectionResetError, ssl.SSLError):
            return True


def request(method, path, body=b"", extra=""):
    length = f"Content-Length: {len(body)}\r\n" if body or method in ("POST", "PUT", "PATCH") else ""
    return f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n{length}{extra}\r\n".encode() + body


def fetch(port, path, tls=True, method="GET"):
    """One request on a fresh connection."""
    with connect(port, tls) as sock:
        sock.sendall(request(method, path))
        return Reader(sock).response(head=method == "HEAD")


# Certificates ---------------------------------------------------------------------------------------------


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def fingerprint(pem_bytes):
    """SHA-256 of the DER, colon hex, as `openssl x509 -fingerprint -sha256` prints it."""
    der = x509.load_pem_x509_certificate(pem_bytes).public_bytes(serialization.Encoding.DER)
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def fingerprints_in(text):
    return set(re.findall(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}", text))


def write_authority(directory, permitted=None):
    """A CA in `directory` (ca.pem, ca-key.pem) as an older TouchDeck made it (`permitted` None: no name
    constraints) or constrained to `permitted` (x509 GeneralNames)."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "TouchDeck local CA (test)")])
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(now() - datetime.timedelta(hours=1))
               .not_valid_after(now() + datetime.timedelta(days=3650))
               .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    if permitted is not None:
        builder = builder.add_extension(x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None),
                                        critical=True)
    certificate = builder.sign(key, hashes.SHA256())
    (directory / "ca.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path = directory / "ca-key.pem"
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)


def forge_leaf(tls_dir, names, out_dir):
    """What a thief of `ca-key.pem` would make: a server certificate for `names` (DNS names or IP strings)
    signed by the host's CA. Returns (cert path, key path)."""
    ca = x509.load_pem_x509_certificate((tls_dir / "ca.pem").read_bytes())
    ca_key = serialization.load_pem_private_key((tls_dir / "ca-key.pem").read_bytes(), None)
    key = ec.generate_private_key(ec.SECP256R1())
    sans = [x509.IPAddress(ipaddress.ip_address(n)) if re.fullmatch(r"[0-9.:a-f]+", n) else x509.DNSName(n)
            for n in names]
    leaf = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
            .issuer_name(ca.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now() - datetime.timedelta(hours=1)).not_valid_after(now() + datetime.timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(sans), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    stem = re.sub(r"[^a-z0-9]+", "_", names[0].lower())
    cert_path, key_path = out_dir / f"{stem}.pem", out_dir / f"{stem}-key.pem"
    cert_path.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path
