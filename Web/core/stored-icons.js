// Stored icons (PROTOCOL §6 "Stored icons"): a picture chosen on this device goes to the host as `storeIcon`, and a
// key shows it by name (`{"image":NAME}`); the PNG behind a name is asked for once with `getIcon` and kept here, by
// name, for as long as the page lives (a name is the start of the PNG's digest: its picture never changes).
// DOM-free, so `node --test` checks it.
import { decodeBase64, encodeBase64 } from './base64.js';

/** The largest file the host takes: 1 MiB. */
export const MAX_ICON_BYTES = 1 << 20;
/** The file types the host takes, for the file picker's `accept`. */
export const ICON_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
/** A stored icon's name, as the host checks it (KeyLook.isImageName). */
export const IMAGE_NAME = /^[0-9a-f]{8,64}\.png$/;

/** The stored icon a key shows, or null. */
export function imageName(button) {
  const icon = button?.icon;
  return typeof icon?.image === 'string' && IMAGE_NAME.test(icon.image) ? icon.image : null;
}

/**
 * Why the host would refuse this file as an icon, in its words, or '' (the host checks again by the file's bytes).
 * `file` is `{ name, type, size }` as a File has them.
 */
export function iconFileProblem({ name = '', type = '', size = 0 }) {
  if (type === 'image/svg+xml' || /\.svgz?$/i.test(name)) {
    return 'SVG is not accepted (an SVG file can carry script): choose a PNG, JPEG or WebP image';
  }
  if (type && !ICON_TYPES.includes(type)) return 'not a PNG, JPEG or WebP image';
  if (size > MAX_ICON_BYTES) return `the image is ${size} bytes; at most 1 MiB (${MAX_ICON_BYTES} bytes)`;
  return '';
}

/** The `storeIcon` message for a file's bytes. */
export const storeIcon = (bytes) => ({ type: 'storeIcon', data: encodeBase64(bytes) });

/**
 * The pictures of stored icons, by name: `want(names)` asks the host (through `send`) for those it has not asked
 * for yet; `received(icon)` takes its answer. `src(name)` is a `data:` URL once the picture is here, else null
 * (the key shows its label meanwhile, and for good when the host has no such icon).
 */
export class StoredIcons {
  #send;
  #pictures = new Map(); // name → data: URL, or null when the host has none
  #asked = new Set();

  constructor(send) { this.#send = send; }

  /** Asks for every name in `names` not here and not asked for yet; returns how many it asked for. */
  want(names) {
    let asked = 0;
    for (const name of names) {
      if (!IMAGE_NAME.test(name) || this.#pictures.has(name) || this.#asked.has(name)) continue;
      this.#asked.add(name);
      this.#send({ type: 'getIcon', name });
      asked += 1;
    }
    return asked;
  }

  /** An `icon` message: its picture is kept (or that there is none). Returns whether it was a PNG. */
  received({ name, data }) {
    this.#asked.delete(name);
    const png = typeof data === 'string' ? isPNG(data) : false;
    this.#pictures.set(name, png ? `data:image/png;base64,${data}` : null);
    return png;
  }

  /** The connection dropped: answers still owed will not come, so those names are asked for again. */
  reset() { this.#asked.clear(); }

  src(name) { return this.#pictures.get(name) ?? null; }
}

function isPNG(base64) {
  try {
    const head = decodeBase64(base64.slice(0, 12));
    return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => head[i] === byte);
  } catch {
    return false;
  }
}
