// Where a touch lands in the video, and how far the view may zoom and move: the JS side of DeckKit's
// ScreenGeometry and TwoFinger (DESIGN.md#viewing), checked against the same Tests/Fixtures/rules/geometry.json.
// Sizes are {width, height}, points {x, y}, rects {x, y, width, height}.

export const MIN_SIDE = 320;
export const MAX_SIDE = 3840;

/** The video size for a monitor when the device asks for `maxSide` (what the host's `screenStarted` says). */
export function fit(width, height, requested) {
  const target = Math.min(Math.max(requested, MIN_SIDE), MAX_SIDE);
  const scale = Math.min(1, target / Math.max(width, height, 1));
  const even = (value, source) => Math.max(2, Math.min(Math.round(value / 2) * 2, source - (source % 2)));
  return { width: even(width * scale, width), height: even(height * scale, height) };
}

/** The rectangle the video fills when fitted (aspect kept, centred) into the view. */
export function videoRect(video, view) {
  if (!(video.width > 0 && video.height > 0)) return { x: 0, y: 0, width: 0, height: 0 };
  const scale = Math.min(view.width / video.width, view.height / video.height);
  const width = video.width * scale;
  const height = video.height * scale;
  return { x: (view.width - width) / 2, y: (view.height - height) / 2, width, height };
}

/**
 * A touch in the view → a position in the video (0…1 each way), or null on the letterbox. The view shows the
 * video zoomed about the view's centre and then moved by `offset`; this undoes the offset, the zoom, then the
 * letterbox.
 */
export function normalized(touch, view, video, zoom = 1, offset = { width: 0, height: 0 }) {
  const rect = videoRect(video, view);
  if (!(zoom > 0 && rect.width > 0 && rect.height > 0)) return null;
  const cx = view.width / 2;
  const cy = view.height / 2;
  const x = cx + (touch.x - offset.width - cx) / zoom;
  const y = cy + (touch.y - offset.height - cy) / zoom;
  if (x < rect.x || x > rect.x + rect.width || y < rect.y || y > rect.y + rect.height) return null;
  return { x: (x - rect.x) / rect.width, y: (y - rect.y) / rect.height };
}

/**
 * Limits the pan so no empty space shows beyond the zoomed video. `covered`: the height the on-screen keyboard
 * covers at the bottom; the view may then also move up by that much, even at 1×.
 */
export function clampOffset(offset, zoom, view, covered = 0) {
  const growth = Math.max(0, zoom - 1) / 2;
  const maxX = Math.max(0, view.width * growth);
  const maxY = Math.max(0, view.height * growth);
  const minY = -maxY - Math.max(0, covered);
  return {
    width: Math.min(Math.max(offset.width, -maxX), maxX),
    height: Math.min(Math.max(offset.height, minY), maxY),
  };
}

/** Two-finger gestures decide once what they are (DeckKit TwoFinger). */
export const TwoFinger = Object.freeze({
  /** Spread change (fraction of the starting distance) above which it is a zoom. */
  zoomSpread: 0.08,
  /** Points the fingers' midpoint must travel before it is a scroll or a pan. */
  moveDistance: 12,
  /** Zoom above this counts as zoomed in. */
  zoomedAbove: 1.01,

  /** 'undecided' | 'zoom' | 'scroll' | 'pan': the first clear movement wins and sticks until the lift. */
  decide(current, { spread, moved, zoom, covered = 0 }) {
    if (current !== 'undecided') return current;
    if (Math.abs(spread - 1) > this.zoomSpread) return 'zoom';
    if (!(moved > this.moveDistance)) return 'undecided';
    return zoom > this.zoomedAbove || covered > 0 ? 'pan' : 'scroll';
  },
});
