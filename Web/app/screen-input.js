// DOM input on the screen view → gestures → actions. Touch and pen go through TouchGestures, a mouse or trackpad
// through MouseGestures; both arrive as Pointer Events, so one path serves iPad Safari, Chromium and WebKitGTK.
import { MouseGestures, TouchGestures } from '../core/gestures.js';

const LINE = 40;
/** [`PointerEvent.button`, its bit in `buttons`] for the left and right buttons. */
const BUTTON_BITS = [[0, 1], [2, 2]];
const PAGE = 800;

/**
 * Listens on `surface`; `run(actions)` performs what the gestures decided. `viewState()` gives {zoom, covered}.
 * Returns `reset()`, called when viewing ends so a held touch or button starts over.
 */
export function listenForInput(surface, { run, viewState }) {
  const touch = new TouchGestures({ view: viewState });
  const mouse = new MouseGestures();
  let holdTimer = null;
  let mouseButtons = 0;
  const now = () => performance.now();
  const local = (e) => {
    const box = surface.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  let settling = false;
  const settleNextFrame = () => {
    if (settling) return;
    settling = true;
    requestAnimationFrame(() => {
      settling = false;
      run(touch.settle());
    });
  };
  const armHold = () => {
    clearTimeout(holdTimer);
    const deadline = touch.deadline;
    if (deadline !== null) holdTimer = setTimeout(() => run(touch.tick(now())), Math.max(0, deadline - now()));
  };

  surface.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    surface.setPointerCapture?.(e.pointerId);
    if (e.pointerType === 'mouse') {
      mouseButtons = e.buttons;
      run(mouse.down(e.button, local(e)));
    } else {
      run(touch.down(e.pointerId, local(e), now()));
      armHold();
    }
  });
  surface.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'mouse') {
      if (!touch.twoFingers) run(touch.move(e.pointerId, local(e), now()));
      else {
        touch.place(e.pointerId, local(e));
        settleNextFrame();
      }
      return;
    }
    // A button pressed or released while another is held arrives as a move (chorded buttons, Pointer Events
    // §4.1.3); WebKit also leaves the right button held after a right click. Act on what changed.
    const changed = e.buttons ^ mouseButtons;
    mouseButtons = e.buttons;
    for (const [button, bit] of BUTTON_BITS) {
      if (!(changed & bit)) continue;
      run(e.buttons & bit ? mouse.down(button, local(e)) : mouse.up(button, local(e)));
    }
    run(mouse.move(local(e)));
  });
  surface.addEventListener('pointerup', (e) => {
    if (e.pointerType === 'mouse') {
      mouseButtons = e.buttons;
      run(mouse.up(e.button, local(e)));
    } else {
      if (touch.twoFingers) run(touch.settle()); // the last placed move counts before the lift
      run(touch.up(e.pointerId, local(e), now()));
    }
    armHold();
  });
  surface.addEventListener('pointercancel', (e) => {
    run(e.pointerType === 'mouse' ? mouse.cancel(local(e)) : touch.cancel());
    clearTimeout(holdTimer);
  });
  surface.addEventListener('contextmenu', (e) => e.preventDefault());
  surface.addEventListener('wheel', (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? LINE : e.deltaMode === 2 ? PAGE : 1;
    run(mouse.wheel(local(e), e.deltaX * unit, e.deltaY * unit, e.ctrlKey));
  }, { passive: false });
  // Safari's own pinch (gesture events) would zoom the page: the view zooms itself.
  surface.addEventListener('gesturestart', (e) => e.preventDefault());

  return function reset() {
    clearTimeout(holdTimer);
    run(touch.cancel().filter((a) => a.type === 'ring'));
    mouse.cancel();
  };
}
