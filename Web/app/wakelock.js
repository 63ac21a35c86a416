// Keeps the screen on while the app is visible (DESIGN.md#client); browsers drop the lock when the page hides.
import { log } from '../core/log.js';

export function keepAwake() {
  if (!('wakeLock' in navigator)) return;
  const request = () => navigator.wakeLock.request('screen').catch((error) => {
    log.info('wake lock not granted', { error: String(error?.name ?? error) });
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) request(); });
  request();
}
