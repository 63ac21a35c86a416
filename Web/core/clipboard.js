// The clipboard between the device and the computer (DESIGN.md#clipboard, PROTOCOL §6 "Clipboard"), without the
// DOM: the limits the host applies (checked here first, so a paste too large is explained before it is sent),
// the `clipboardSet` message, what the offer bar says, and reading the device's clipboard.
import { decodeBase64, encodeBase64 } from './base64.js';
import { formatSize } from './recording.js';

export const MAX_TEXT_BYTES = 1 << 20;
export const MAX_IMAGE_BYTES = 8 << 20;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PREVIEW_CHARACTERS = 120;

/**
 * The `clipboardSet` for what the device's clipboard holds (`{kind: 'text', text}` or `{kind: 'image', bytes}`
 * of a PNG), or `{error}` saying why it cannot go.
 */
export function pasteMessage(content, { paste = true, ask = false } = {}) {
  const bytes = content.kind === 'text' ? new TextEncoder().encode(content.text) : content.bytes;
  if (content.kind === 'text' && bytes.length === 0) return { error: 'The clipboard of this device is empty.' };
  const limit = content.kind === 'text' ? MAX_TEXT_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length > limit) {
    return { error: `The ${content.kind} is too large to paste (${formatSize(bytes.length)}; at most `
      + `${formatSize(limit)}).` };
  }
  if (content.kind === 'image' && !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    return { error: 'Only PNG images can be pasted onto the computer.' };
  }
  const message = { type: 'clipboardSet', kind: content.kind, data: encodeBase64(bytes), paste };
  return { message: ask ? { ...message, ask: true } : message };
}

/**
 * What the viewer shows for a `clipboardResult` refused because this device may not paste (`notAllowed`), as the
 * Screen tab does for viewing: `{title, body, mayAsk}` (`body` the host's reason, with the command; `mayAsk`: the
 * computer can ask its user, so "Ask the computer" is offered), or null for any other result.
 */
export function pasteRefusal(result) {
  if (result.ok || !result.notAllowed) return null;
  const titles = {
    denied: 'The computer said no',
    timedOut: 'Nobody answered',
    unavailable: 'The computer cannot ask',
  };
  return { title: titles[result.asked] ?? 'Not allowed to paste', body: result.reason ?? '',
    mayAsk: result.asked !== 'unavailable' };
}

/** What the viewer shows while the computer's user has the question (`clipboardSet{ask:true}` sent). */
export const PASTE_ASKING = { title: 'Asked the computer…',
  body: 'Someone at the computer can allow this paste, or this device from now on.' };

/**
 * What the bar shows for a `clipboardOffer`: `{kind, text}` (a one-line preview and the whole text),
 * `{kind: 'image', bytes, width, height, url}` (a `data:` URL: the page's CSP allows no `blob:` pictures), or `{tooLarge: 'Text, 21.0 MB: too large to copy here'}`.
 */
export function describeOffer(offer) {
  if (offer.tooLarge || offer.data === undefined) {
    const what = offer.kind === 'image' ? 'An image' : 'Text';
    const pixels = offer.width ? ` (${offer.width} × ${offer.height})` : '';
    return { kind: offer.kind, tooLarge: `${what}${pixels}, ${formatSize(offer.size)}: too large to copy here` };
  }
  const bytes = decodeBase64(offer.data);
  if (offer.kind === 'image') {
    return { kind: 'image', bytes, width: offer.width, height: offer.height, url: `data:image/png;base64,${offer.data}` };
  }
  const text = new TextDecoder().decode(bytes);
  const line = text.replace(/\s+/g, ' ').trim();
  const preview = [...line].length > PREVIEW_CHARACTERS ? `${[...line].slice(0, PREVIEW_CHARACTERS).join('')}…` : line;
  return { kind: 'text', text, preview };
}

/**
 * Reads the device's clipboard (call it inside the tap: iOS asks once, and refuses outside a gesture): a PNG
 * first, else the text. `{kind: 'text', text}`, `{kind: 'image', bytes}`, or `{error}`.
 */
export async function readDeviceClipboard(clipboard = globalThis.navigator?.clipboard) {
  if (!clipboard) return { error: 'This browser does not let pages read the clipboard (it needs HTTPS).' };
  try {
    if (clipboard.read) {
      const items = await clipboard.read();
      for (const item of items) {
        if (item.types.includes('image/png')) {
          return { kind: 'image', bytes: new Uint8Array(await (await item.getType('image/png')).arrayBuffer()) };
        }
      }
      for (const item of items) {
        if (item.types.includes('text/plain')) return { kind: 'text', text: await (await item.getType('text/plain')).text() };
      }
      if (items.length > 0) return { error: 'The clipboard holds neither text nor a PNG image.' };
    }
    return { kind: 'text', text: await clipboard.readText() };
  } catch (error) {
    if (error?.name === 'NotAllowedError') return { error: 'This browser did not allow reading the clipboard.' };
    return { error: `The clipboard could not be read (${error?.message ?? error}).` };
  }
}

/** Writes an offer's content to the device's clipboard (inside the tap); resolves to null or an error text. */
export async function writeDeviceClipboard(described, clipboard = globalThis.navigator?.clipboard,
  Item = globalThis.ClipboardItem) {
  if (!clipboard) return 'This browser does not let pages write the clipboard (it needs HTTPS).';
  try {
    if (described.kind === 'image') {
      if (!Item || !clipboard.write) return 'This browser cannot put an image on the clipboard.';
      await clipboard.write([new Item({ 'image/png': new Blob([described.bytes], { type: 'image/png' }) })]);
    } else {
      await clipboard.writeText(described.text);
    }
    return null;
  } catch (error) {
    return `The clipboard could not be written (${error?.message ?? error}).`;
  }
}
