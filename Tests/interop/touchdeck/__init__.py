"""TouchDeck reference client, written from docs/PROTOCOL.md alone.

Modules, in the order a reader should meet them:
  primitives -- names over the `cryptography` package (HKDF, HMAC, ChaCha20-Poly1305, base64)
  p256       -- P-256 point arithmetic on plain Python ints
  spake2     -- RFC 9382 SPAKE2 (P256-SHA256-HKDF-HMAC), both roles
  messages   -- the message catalogue: fields, defaults, a checker
  secure     -- SecureChannel: sealed text and binary envelopes (PROTOCOL §5)
  handshake  -- the device side of pairing (§3) and authentication (§4)
  packets    -- video and audio packet headers (§7)
  transports -- WebSocket and subprocess-pipe transports
  client     -- DeckClient: an asyncio device over either transport
"""
