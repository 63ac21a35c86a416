// The key kinds the editor knows: an open key's target as the host checks it, label defaults, unknown kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLabel, isKnownKind, isOpenTarget, keySubtitle, shownLabel } from '../core/key-kinds.js';

test('open targets the host takes: web and mail addresses, absolute paths, home paths', () => {
  for (const target of ['https://example.com', 'http://localhost:8080/x?y=1', 'HTTPS://EXAMPLE.COM', 'mailto:a@b.c',
    '/etc/hosts', '/', '~', '~/Documents', '~/My Files/a b.pdf']) {
    assert.ok(isOpenTarget(target), target);
  }
});

test('open targets the host refuses: other schemes, relative paths, bare schemes, line breaks', () => {
  for (const target of ['', 'javascript:alert(1)', 'file:///etc/passwd', 'Documents', './x', '~user/x', 'https://',
    'mailto:', 'ftp://example.com', 'example.com', 'https://a\nb', '/tmp/a\u2028b', '/tmp/\0']) {
    assert.ok(!isOpenTarget(target), JSON.stringify(target));
  }
  assert.ok(!isOpenTarget(undefined));
});

test('a hotkey key with no label is named after its chord', () => {
  const button = { label: '', kind: 'hotkey', key: 't', modifiers: ['ctrl', 'shift'] };
  assert.equal(defaultLabel(button), 'Ctrl+Shift+T');
  assert.equal(shownLabel(button), 'Ctrl+Shift+T');
  assert.equal(shownLabel({ ...button, label: 'New tab' }), 'New tab');
  assert.equal(shownLabel({ label: '   ', kind: 'hotkey', key: 'playPause' }), 'Play/Pause');
});

test('text and open keys default to the first line and the address', () => {
  assert.equal(defaultLabel({ kind: 'text', text: '\n  Kind regards,\nAnn' }), 'Kind regards,');
  assert.equal(defaultLabel({ kind: 'text', text: 'x'.repeat(40) }), `${'x'.repeat(23)}…`);
  assert.equal(defaultLabel({ kind: 'open', target: 'https://www.example.com/a/b?c' }), 'example.com');
  assert.equal(defaultLabel({ kind: 'open', target: 'mailto:ann@example.com?subject=hi' }), 'ann@example.com');
  assert.equal(defaultLabel({ kind: 'open', target: '~/Documents/' }), 'Documents');
  assert.equal(defaultLabel({ kind: 'open', target: '~' }), '~');
  assert.equal(defaultLabel({ kind: 'open', target: 'javascript:alert(1)' }), '', 'no name from a target refused');
  assert.equal(defaultLabel({ kind: 'command', command: 'ls' }), '', 'the old kinds still need a label');
  assert.equal(defaultLabel({ kind: 'micMute' }), 'Mic');
  assert.ok(isKnownKind('micMute'), 'a micMute key is edited, not only pressed');
});

test('a media key is named after its action', () => {
  assert.equal(defaultLabel({ kind: 'media', action: 'playPause' }), 'Play/Pause');
  assert.equal(defaultLabel({ kind: 'media', action: 'next' }), 'Next track');
  assert.equal(defaultLabel({ kind: 'media', action: 'previous' }), 'Previous track');
  assert.equal(shownLabel({ label: '', kind: 'media', action: 'stop' }), 'Stop');
  assert.equal(defaultLabel({ kind: 'media', action: 'shuffle' }), '', 'no name for an action the host refuses');
  assert.equal(keySubtitle({ kind: 'media', action: 'next' }), '', 'the player\'s state is the small print');
});

test('kinds this client knows; a later kind is not one', () => {
  for (const kind of ['app', 'command', 'terminal', 'record', 'hotkey', 'text', 'open', 'media']) {
    assert.ok(isKnownKind(kind));
  }
  assert.ok(!isKnownKind('multiAction'));
  assert.ok(!isKnownKind(undefined));
});

test('the small print under a key says what it does', () => {
  assert.equal(keySubtitle({ kind: 'hotkey', key: 'f5', modifiers: ['ctrl'] }), 'Ctrl+F5');
  assert.equal(keySubtitle({ kind: 'text', text: 'hello\nworld' }), 'hello');
  assert.equal(keySubtitle({ kind: 'open', target: '~/x' }), '~/x');
  assert.equal(keySubtitle({ kind: 'terminal', directory: '' }), '~');
  assert.equal(keySubtitle({ kind: 'toggle', state: 'on' }), 'On');
  assert.equal(keySubtitle({ kind: 'slider' }), '', 'a kind this client does not know has no small print');
});
