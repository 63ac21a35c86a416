// The one place the web client writes to the console (DESIGN.md#web-client-code).
// Typed text, PINs and secrets are never passed here.

const sinks = [];
let level = 'info';
const order = { debug: 0, info: 1, warn: 2, error: 3 };

/** Adds a sink `(level, message, fields) => void`, e.g. for tests. Returns a remover. */
export function addLogSink(sink) {
  sinks.push(sink);
  return () => sinks.splice(sinks.indexOf(sink), 1);
}

export function setLogLevel(name) { level = name; }

function write(at, message, fields = {}) {
  if (order[at] < order[level]) return;
  for (const sink of sinks) sink(at, message, fields);
  if (sinks.length === 0 && globalThis.console) {
    // Warnings stay at "warn": the browser tests treat console errors as failures.
    const method = at === 'error' ? 'warn' : at === 'debug' ? 'debug' : at;
    globalThis.console[method](`[touchdeck] ${message}`, fields);
  }
}

export const log = {
  debug: (m, f) => write('debug', m, f),
  info: (m, f) => write('info', m, f),
  warn: (m, f) => write('warn', m, f),
  error: (m, f) => write('error', m, f),
};
