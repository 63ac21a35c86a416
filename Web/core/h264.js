// What the client needs to know about an H.264 stream to configure a WebCodecs decoder.

/** The NAL unit type of a raw NAL unit (no start code). */
export function nalType(nal) {
  return nal.length > 0 ? nal[0] & 0x1f : -1;
}

const hex2 = (n) => n.toString(16).padStart(2, '0');

/**
 * The RFC 6381 codec string of a stream, built from its SPS (raw, no start code): `avc1.PPCCLL` with
 * profile_idc, the constraint flags byte and level_idc — e.g. `avc1.42c01f` for Constrained Baseline 3.1.
 * Null when `sps` is not an SPS.
 */
export function codecString(sps) {
  if (!sps || sps.length < 4 || nalType(sps) !== 7) return null;
  return `avc1.${hex2(sps[1])}${hex2(sps[2])}${hex2(sps[3])}`;
}

/** The first SPS among a keyframe's parameter sets, or null. */
export function findSps(parameterSets) {
  return parameterSets.find((nal) => nalType(nal) === 7) ?? null;
}
