// What a deck key shows after a press (PROTOCOL §6 "Layout": pressResult). A command key is answered twice:
// `running:true` at once, then its outcome when it ends; other keys once. Presses of the same key may overlap
// (each gets its own pair of answers), so a key shows "running" while any of its commands runs. The looks are
// kept by page and slot, not by element: a key drawn again (a new layout) or on a page not in view gets the
// right look, and an outcome lands on the key it belongs to.

/** The look a key takes for one answer, and whether any of its commands still runs afterwards. */
export class PressLooks {
  #running = new Map();  // "page:index" → commands of that key still running

  /**
   * Takes a `pressResult`; returns `{page, index, look, running}`: `look` is 'running' for the first answer
   * of a command (neutral, never success), else 'ok' or 'failed'; `running` whether the key still runs a
   * command after this answer.
   */
  take({ page, index, ok, running }) {
    const slot = `${page}:${index}`;
    const count = this.#running.get(slot) ?? 0;
    if (running === true) {
      this.#running.set(slot, count + 1);
      return { page, index, look: 'running', running: true };
    }
    if (count > 1) this.#running.set(slot, count - 1);
    else this.#running.delete(slot);
    return { page, index, look: ok ? 'ok' : 'failed', running: count > 1 };
  }

  /** Whether a command of this key is still running. */
  isRunning(page, index) {
    return this.#running.has(`${page}:${index}`);
  }

  /**
   * Forgets every running command (the connection was lost: their outcomes will not come); returns the slots
   * that were running as `{page, index}`.
   */
  clear() {
    const slots = [...this.#running.keys()].map((slot) => {
      const [page, index] = slot.split(':').map(Number);
      return { page, index };
    });
    this.#running.clear();
    return slots;
  }
}
