"""SecureChannel: the sealed envelopes of PROTOCOL §5 (ChaCha20-Poly1305, RFC 8439).

Each direction counts text and binary separately, both from 1. The receiver remembers the last seq it
accepted per kind and refuses anything not greater. The AD names the kind ("17" for text, "bin|17" for
binary), so a text box re-sent as binary does not open.
"""

import os

from cryptography.exceptions import InvalidTag

from . import messages
from .primitives import NONCE_SIZE, TAG_SIZE, b64decode, b64encode, open_sealed, seal

SEQ_SIZE = 8
BINARY_OVERHEAD = SEQ_SIZE + NONCE_SIZE + TAG_SIZE  # 36 bytes


class SealError(ValueError):
    """A sealed message was refused. `reason` is "badSeal" (did not open or malformed) or "replayed"."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def text_ad(seq):
    return str(seq).encode("ascii")


def binary_ad(seq):
    return b"bin|" + str(seq).encode("ascii")


class SecureChannel:
    """One end of an authorized session: seals with `send_key`, opens with `open_key`."""

    def __init__(self, send_key, open_key):
        self.send_key, self.open_key = send_key, open_key
        self.sent_text = self.sent_binary = 0
        self.received_text = self.received_binary = 0

    def seal_text(self, inner):
        """inner (a dict, or already-encoded JSON text) → the `secure` envelope dict."""
        plaintext = inner if isinstance(inner, str) else messages.encode(inner)
        self.sent_text += 1
        nonce = os.urandom(NONCE_SIZE)
        box = nonce + seal(self.send_key, nonce, plaintext.encode("utf-8"), text_ad(self.sent_text))
        return {"type": "secure", "seq": self.sent_text, "box": b64encode(box)}

    def open_text(self, envelope):
        """A `secure` envelope dict → the inner message dict."""
        seq, box = envelope.get("seq"), envelope.get("box")
        if type(seq) is not int or seq < 1:
            raise SealError("badSeal")
        try:
            raw = b64decode(box)
        except ValueError:
            raise SealError("badSeal") from None
        plaintext = self._open(raw, text_ad(seq))
        if seq <= self.received_text:
            raise SealError("replayed")
        self.received_text = seq
        try:
            return messages.decode(plaintext.decode("utf-8"))
        except ValueError:
            raise SealError("badSeal") from None

    def seal_binary(self, body):
        """bytes → seq (8 bytes big-endian) || nonce || ciphertext || tag."""
        self.sent_binary += 1
        nonce = os.urandom(NONCE_SIZE)
        sealed = seal(self.send_key, nonce, bytes(body), binary_ad(self.sent_binary))
        return self.sent_binary.to_bytes(SEQ_SIZE, "big") + nonce + sealed

    def open_binary(self, data):
        """A sealed binary message → its plaintext bytes."""
        if len(data) < BINARY_OVERHEAD:
            raise SealError("badSeal")
        seq = int.from_bytes(data[:SEQ_SIZE], "big")
        plaintext = self._open(data[SEQ_SIZE:], binary_ad(seq))
        if seq <= self.received_binary:
            raise SealError("replayed")
        self.received_binary = seq
        return plaintext

    def _open(self, nonce_and_box, ad):
        if len(nonce_and_box) < NONCE_SIZE + TAG_SIZE:
            raise SealError("badSeal")
        nonce, box = nonce_and_box[:NONCE_SIZE], nonce_and_box[NONCE_SIZE:]
        try:
            return open_sealed(self.open_key, nonce, box, ad)
        except InvalidTag:
            raise SealError("badSeal") from None
