"""P-256 (secp256r1) point arithmetic on plain Python ints.

Affine coordinates and the textbook double-and-add ladder: slow next to a real library, but every step is
visible, which is the point of a reference client. Points are `(x, y)` tuples; `None` is the point at
infinity. Nothing here is constant-time: it is for tests and for reading, not for a product.
"""

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


class PointError(ValueError):
    """An encoding that is not a point on P-256."""


def is_on_curve(point):
    if point is None:
        return False
    x, y = point
    return 0 <= x < P and 0 <= y < P and (y * y - (x * x * x + A * x + B)) % P == 0


def negate(point):
    if point is None:
        return None
    x, y = point
    return (x, (-y) % P)


def add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1 = p1
    x2, y2 = p2
    if x1 == x2 and (y1 + y2) % P == 0:
        return None  # p2 == -p1 (this also covers doubling a point with y = 0)
    if p1 == p2:
        slope = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return (x3, (slope * (x1 - x3) - y1) % P)


def multiply(scalar, point):
    """scalar · point, by double-and-add from the most significant bit."""
    result = None
    for bit in bin(scalar % N)[2:]:
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


def encode(point):
    """SEC1 uncompressed: 04 || X || Y (65 bytes)."""
    if point is None:
        raise PointError("the point at infinity has no encoding")
    x, y = point
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def decode(data):
    """Accepts SEC1 uncompressed (65 bytes) or compressed (33 bytes); refuses anything off the curve."""
    if len(data) == 65 and data[0] == 4:
        point = (int.from_bytes(data[1:33], "big"), int.from_bytes(data[33:], "big"))
    elif len(data) == 33 and data[0] in (2, 3):
        point = _decompress(int.from_bytes(data[1:], "big"), odd=data[0] == 3)
    else:
        raise PointError("not a SEC1 P-256 point encoding")
    if not is_on_curve(point):
        raise PointError("point is not on P-256")
    return point


def _decompress(x, odd):
    if x >= P:
        raise PointError("x is not a field element")
    # P ≡ 3 (mod 4), so a square root is a single exponentiation.
    y = pow((x * x * x + A * x + B) % P, (P + 1) // 4, P)
    if (y * y - (x * x * x + A * x + B)) % P != 0:
        raise PointError("x has no point on P-256")
    if (y & 1) != odd:
        y = P - y
    return (x, y)
