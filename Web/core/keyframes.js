// When the viewer asks the host for a keyframe (seed): once right after `screenStarted`, and after an
// undecodable frame at most every 0.5 s, so a burst of broken frames does not become a burst of requests.

export const KEYFRAME_REQUEST_INTERVAL_MS = 500;

export class KeyframeRequests {
  constructor(interval = KEYFRAME_REQUEST_INTERVAL_MS) {
    this.interval = interval;
    this.last = -Infinity;
  }

  /** The stream (re)started: always ask once. */
  started(now) {
    this.last = now;
    return true;
  }

  /** A frame could not be decoded: true when a request may go out now. */
  failed(now) {
    if (now - this.last < this.interval) return false;
    this.last = now;
    return true;
  }

  /** How long until a refused request may go out (a still screen sends no further frame to fail on). */
  wait(now) {
    return Math.max(0, this.last + this.interval - now);
  }
}
