"""TouchDeck reference client, written from docs/PROTOCOL.md alone.

Modules, in the order a reader should meet them:
  p256       -- P-256 point arithmetic on plain Python ints
  spake2     -- RFC 9382 SPAKE2 (P256-SHA256-HKDF-HMAC), both roles
  secure     -- SecureChannel: sealed text and binary envelopes (PROTOCOL §5)
  handshake  -- the device side of pairing (§3) and authentication (§4)
  packets    -- video and audio packet headers (§7)
  client     -- DeckClient: an asyncio client over WebSocket or a subprocess pipe
"""
