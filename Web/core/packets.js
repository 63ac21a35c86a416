// Media packets after the sealed binary envelope is opened (PROTOCOL.md §7). The first byte says what a
// packet is: 1 video (H.264), 2 audio. A packet cut anywhere before its first frame byte is dropped (null),
// never thrown: the reader counts everything before the frame, so a short packet still looks whole.

export const PACKET_VIDEO = 1;
export const PACKET_AUDIO = 2;
const FLAG_KEYFRAME = 1;
const FLAG_TIMING = 2;

/** The kind byte of a packet (1 video, 2 audio), or 0 for an empty one. */
export function packetKind(bytes) {
  return bytes.length > 0 ? bytes[0] : 0;
}

/**
 * A video packet's fields, or null when it is shorter than its header says or has no frame byte.
 * `frame` and `parameterSets` are views into `bytes` (no copy).
 * @returns {{codec:number, keyframe:boolean, timing:{captureMicros:number, hostProcessingMicros:number}|null,
 *   parameterSets:Uint8Array[], frame:Uint8Array}|null}
 */
export function parseVideo(bytes) {
  if (bytes.length < 2) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = bytes[1];
  let at = 2;
  let timing = null;
  if (flags & FLAG_TIMING) {
    if (bytes.length < at + 12) return null;
    // Microseconds since 1970 fit a double exactly until the year 2255.
    const captureMicros = view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
    timing = { captureMicros, hostProcessingMicros: view.getUint32(at + 8) };
    at += 12;
  }
  const keyframe = Boolean(flags & FLAG_KEYFRAME);
  const parameterSets = [];
  if (keyframe) {
    if (bytes.length < at + 1) return null;
    const count = bytes[at];
    at += 1;
    for (let i = 0; i < count; i += 1) {
      if (bytes.length < at + 2) return null;
      const length = view.getUint16(at);
      at += 2;
      if (bytes.length < at + length) return null;
      parameterSets.push(bytes.subarray(at, at + length));
      at += length;
    }
  }
  if (at >= bytes.length) return null;
  return { codec: bytes[0], keyframe, timing, parameterSets, frame: bytes.subarray(at) };
}
