// Test helpers: locate the repository and read the shared fixture files the Swift and Python tests use.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Absolute path of the repository root (two levels above this file). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Parsed JSON of a file under the repository root. */
export function loadJSON(relativePath) {
  return JSON.parse(readFileSync(path.join(repoRoot, relativePath), 'utf8'));
}

/** Bytes from a hex string (fixtures write byte strings as hex). */
export function hex(text) {
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** Hex of bytes, for readable assertion messages. */
export function toHex(bytes) {
  return Buffer.from(bytes).toString('hex');
}
