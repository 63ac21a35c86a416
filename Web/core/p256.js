// P-256 (secp256r1) point arithmetic with BigInt, for SPAKE2: WebCrypto's ECDH cannot add points or multiply
// the fixed points M and N, so the browser does that part itself. Points are affine `{x, y}` outside this
// module and Jacobian `{X, Y, Z}` inside, where additions need no inversion.
// BigInt arithmetic is not constant-time; the scalars it handles are one-shot pairing values.

/** Field prime p. */
export const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
/** Group order n. */
export const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
/** Curve coefficient b (a = −3). */
export const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
/** Base point G (affine). */
export const G = Object.freeze({
  x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
});
/** The point at infinity (the group's identity). */
export const INFINITY = Object.freeze({ infinity: true });

/** Thrown for bytes that are not a valid P-256 point encoding. */
export class PointError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PointError';
  }
}

/** `a mod m` in [0, m). */
export function mod(a, m = P) {
  const r = a % m;
  return r < 0n ? r + m : r;
}

/** `a mod n`, the scalar field. */
export function modN(a) {
  return mod(a, N);
}

/** Modular inverse by the extended Euclidean algorithm (faster than Fermat with BigInt). */
export function invert(a, m = P) {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  if (r0 === 0n) throw new RangeError('zero has no inverse');
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return mod(s0, m);
}

function powMod(base, exponent, m) {
  let result = 1n;
  base = mod(base, m);
  while (exponent > 0n) {
    if (exponent & 1n) result = (result * base) % m;
    base = (base * base) % m;
    exponent >>= 1n;
  }
  return result;
}

/** True for the identity. */
export function isInfinity(point) {
  return point.infinity === true;
}

/** True when the affine point satisfies y² = x³ − 3x + b with coordinates in [0, p). */
export function isOnCurve(point) {
  if (isInfinity(point)) return false;
  const { x, y } = point;
  if (x < 0n || x >= P || y < 0n || y >= P) return false;
  return mod(y * y - (x * x * x - 3n * x + B)) === 0n;
}

function toJacobian(point) {
  return isInfinity(point) ? { X: 1n, Y: 1n, Z: 0n } : { X: point.x, Y: point.y, Z: 1n };
}

function toAffine(J) {
  if (J.Z === 0n) return INFINITY;
  const zInv = invert(J.Z);
  const zInv2 = (zInv * zInv) % P;
  return { x: mod(J.X * zInv2), y: mod(J.Y * zInv2 * zInv) };
}

/** Jacobian doubling for a = −3 ("dbl-2001-b"). */
function jacobianDouble(J) {
  if (J.Z === 0n || J.Y === 0n) return { X: 1n, Y: 1n, Z: 0n };
  const delta = (J.Z * J.Z) % P;
  const gamma = (J.Y * J.Y) % P;
  const beta = (J.X * gamma) % P;
  const alpha = (3n * (J.X - delta) * (J.X + delta)) % P;
  const X = mod(alpha * alpha - 8n * beta);
  const Z = mod((J.Y + J.Z) * (J.Y + J.Z) - gamma - delta);
  const Y = mod(alpha * (4n * beta - X) - 8n * gamma * gamma);
  return { X, Y, Z };
}

/** Jacobian addition ("add-2007-bl"), falling back to doubling for equal inputs. */
function jacobianAdd(J1, J2) {
  if (J1.Z === 0n) return J2;
  if (J2.Z === 0n) return J1;
  const z1z1 = (J1.Z * J1.Z) % P;
  const z2z2 = (J2.Z * J2.Z) % P;
  const u1 = (J1.X * z2z2) % P;
  const u2 = (J2.X * z1z1) % P;
  const s1 = (J1.Y * J2.Z * z2z2) % P;
  const s2 = (J2.Y * J1.Z * z1z1) % P;
  const h = mod(u2 - u1);
  const r = mod(2n * (s2 - s1));
  if (h === 0n) return r === 0n ? jacobianDouble(J1) : { X: 1n, Y: 1n, Z: 0n };
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const v = (u1 * i) % P;
  const X = mod(r * r - j - 2n * v);
  const Y = mod(r * (v - X) - 2n * s1 * j);
  const Z = mod(((J1.Z + J2.Z) * (J1.Z + J2.Z) - z1z1 - z2z2) * h);
  return { X, Y, Z };
}

/** P + Q (affine in, affine out). */
export function add(p, q) {
  return toAffine(jacobianAdd(toJacobian(p), toJacobian(q)));
}

/** 2·P. */
export function double(p) {
  return toAffine(jacobianDouble(toJacobian(p)));
}

/** −P. */
export function negate(p) {
  return isInfinity(p) ? INFINITY : { x: p.x, y: mod(-p.y) };
}

/** k·P for any integer k (reduced mod n), with a 4-bit fixed window over Jacobian coordinates. */
export function multiply(k, point) {
  const scalar = modN(k);
  if (scalar === 0n || isInfinity(point)) return INFINITY;
  const table = [{ X: 1n, Y: 1n, Z: 0n }, toJacobian(point)];
  for (let i = 2; i < 16; i++) table.push(jacobianAdd(table[i - 1], table[1]));
  let acc = { X: 1n, Y: 1n, Z: 0n };
  for (let shift = 252n; shift >= 0n; shift -= 4n) {
    for (let d = 0; d < 4; d++) acc = jacobianDouble(acc);
    acc = jacobianAdd(acc, table[Number((scalar >> shift) & 15n)]);
  }
  return toAffine(acc);
}

function bigIntFrom(bytes, start, end) {
  let value = 0n;
  for (let i = start; i < end; i++) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

function coordinateBytes(value) {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
}

/** SEC1 encoding: 65 bytes `04||X||Y`, or 33 bytes `02/03||X` when `compressed`. */
export function encodePoint(point, compressed = false) {
  if (isInfinity(point)) throw new PointError('the point at infinity has no encoding');
  if (compressed) {
    const out = new Uint8Array(33);
    out[0] = point.y & 1n ? 3 : 2;
    out.set(coordinateBytes(point.x), 1);
    return out;
  }
  const out = new Uint8Array(65);
  out[0] = 4;
  out.set(coordinateBytes(point.x), 1);
  out.set(coordinateBytes(point.y), 33);
  return out;
}

/** Decodes a SEC1 point (uncompressed or compressed) and checks it is on the curve; throws PointError. */
export function decodePoint(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new PointError('point is not a byte array');
  if (bytes.length === 65 && bytes[0] === 4) {
    const point = { x: bigIntFrom(bytes, 1, 33), y: bigIntFrom(bytes, 33, 65) };
    if (!isOnCurve(point)) throw new PointError('point is not on P-256');
    return point;
  }
  if (bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)) {
    const x = bigIntFrom(bytes, 1, 33);
    if (x >= P) throw new PointError('point is not on P-256');
    const rhs = mod(x * x * x - 3n * x + B);
    // p ≡ 3 (mod 4), so a square root is rhs^((p+1)/4) when one exists.
    let y = powMod(rhs, (P + 1n) / 4n, P);
    if ((y * y) % P !== rhs) throw new PointError('point is not on P-256');
    if ((y & 1n) !== BigInt(bytes[0] & 1)) y = mod(-y);
    return { x, y };
  }
  throw new PointError('point encoding has the wrong length or prefix');
}
