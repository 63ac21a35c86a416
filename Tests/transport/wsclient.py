"""WebSocket client steps the Swift transport tests drive (Tests/DeckTransportTests/ServerTests.swift).

Each subcommand prints one JSON object on stdout; the Swift test checks it. Usage:
  wsclient.py echo URL TEXT [--ca CA]             send TEXT, print the reply
  wsclient.py fragments URL PART... [--ca CA]     send one text message as fragments, print the reply
  wsclient.py oversize URL SIZE                   connection A sends SIZE bytes, B then echoes; print both
  wsclient.py receive URL COUNT SIZE              ask for COUNT binary messages of SIZE bytes, print sizes
  wsclient.py listen URL COUNT                    print the first COUNT messages the server sends
  wsclient.py idle URL SECONDS                    stay idle (answering pings), then echo; print the reply
  wsclient.py silent HOST PORT                    upgrade with a raw socket, never answer; print when closed
"""
import asyncio
import base64
import json
import os
import socket
import ssl
import sys
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def ssl_context(args):
    if "--ca" not in args:
        return None
    context = ssl.create_default_context(cafile=args[args.index("--ca") + 1])
    return context


async def echo(url, text, ctx):
    async with connect(url, ssl=ctx, max_size=None) as ws:
        await ws.send(text)
        return {"reply": await ws.recv()}


async def fragments(url, parts, ctx):
    async with connect(url, ssl=ctx, max_size=None) as ws:
        await ws.send(iter(parts))  # an iterable goes out as one fragmented message
        return {"reply": await ws.recv()}


async def oversize(url, size):
    async with connect(url, max_size=None) as a, connect(url, max_size=None) as b:
        code = None
        try:
            await a.send(b"\0" * size)
            await a.recv()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
        await b.send("still here")
        return {"closeCode": code, "other": await b.recv()}


async def receive(url, count, size):
    async with connect(url, max_size=None) as ws:
        await ws.send(f"send-binary {count} {size}")
        sizes = [len(await ws.recv()) for _ in range(count)]
        return {"sizes": sizes}


async def listen(url, count):
    async with connect(url, max_size=None) as ws:
        return {"messages": [await ws.recv() for _ in range(count)]}


async def idle(url, seconds):
    async with connect(url, ping_interval=None) as ws:  # no client pings: only the server's keep it alive
        await asyncio.sleep(seconds)
        await ws.send("after idle")
        return {"reply": await ws.recv()}


def silent(host, port):
    sock = socket.create_connection((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    sock.sendall(request.encode())
    sock.settimeout(30)
    upgraded = b"101" in sock.recv(4096).split(b"\r\n")[0]
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            sock.settimeout(max(deadline - time.monotonic(), 0.1))
            if not sock.recv(4096):  # pings arrive and are never answered; EOF means the server dropped us
                return {"upgraded": upgraded, "closed": True}
    except ConnectionResetError:
        return {"upgraded": upgraded, "closed": True}
    except socket.timeout:
        pass
    return {"upgraded": upgraded, "closed": False}


def main(argv):
    command, args = argv[1], argv[2:]
    ctx = ssl_context(args)
    plain = [a for i, a in enumerate(args) if a != "--ca" and (i == 0 or args[i - 1] != "--ca")]
    if command == "echo":
        result = asyncio.run(echo(plain[0], plain[1], ctx))
    elif command == "fragments":
        result = asyncio.run(fragments(plain[0], plain[1:], ctx))
    elif command == "oversize":
        result = asyncio.run(oversize(plain[0], int(plain[1])))
    elif command == "receive":
        result = asyncio.run(receive(plain[0], int(plain[1]), int(plain[2])))
    elif command == "listen":
        result = asyncio.run(listen(plain[0], int(plain[1])))
    elif command == "idle":
        result = asyncio.run(idle(plain[0], float(plain[1])))
    elif command == "silent":
        result = silent(plain[0], int(plain[1]))
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
