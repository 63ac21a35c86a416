// Stored icons on the device (Web/core/stored-icons.js, PROTOCOL §6 "Stored icons"): the messages are the shared
// fixtures', each name is asked for once, and a key shows the picture once it is here, its label until then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64 } from '../core/base64.js';
import { keyIcon, lookError, showsLabel } from '../core/looks.js';
import { iconFileProblem, imageName, MAX_ICON_BYTES, storeIcon, StoredIcons } from '../core/stored-icons.js';
import { loadJSON } from './support.js';

const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);

test('storeIcon carries the file base64, as the fixture', () => {
  const sent = fixture('storeIcon');
  assert.deepEqual(storeIcon(decodeBase64(sent.data)), sent);
});

test('each name is asked for once with getIcon (the fixture), and kept by name once the icon comes', () => {
  const sent = [];
  const icons = new StoredIcons((message) => sent.push(message));
  const { name } = fixture('getIcon');
  assert.equal(icons.want([name, name, 'not-a-name.png']), 1);
  assert.equal(icons.want([name]), 0, 'already asked');
  assert.deepEqual(sent, [fixture('getIcon')]);
  const key = { label: 'Photo', kind: 'command', command: 'true', icon: { image: name }, hideLabel: true };
  assert.equal(keyIcon(key, null, (n) => icons.src(n)), null, 'not here yet: no icon');
  assert.equal(showsLabel(key, false), true, 'so the label shows meanwhile');
  assert.equal(icons.received(fixture('icon')), true);
  const src = `data:image/png;base64,${fixture('icon').data}`;
  assert.equal(icons.src(name), src);
  assert.deepEqual(keyIcon(key, null, (n) => icons.src(n)), { src, image: name });
  assert.equal(icons.want([name]), 0, 'here: never asked again');
  assert.equal(fixture('iconStored').name, name, 'the name iconStored gives is the one a key shows');
});

test('a name the host does not have shows the label for good; a dropped connection asks again', () => {
  const sent = [];
  const icons = new StoredIcons((message) => sent.push(message));
  const absent = `${'0'.repeat(32)}.png`;
  icons.want([absent, 'abcdef0123456789.png']);
  assert.equal(icons.received({ type: 'icon', name: absent }), false);
  assert.equal(icons.src(absent), null);
  assert.equal(icons.received({ type: 'icon', name: 'ffffffff.png', data: 'R0lGODlh' }), false, 'not a PNG');
  icons.reset();
  assert.equal(icons.want([absent, 'abcdef0123456789.png']), 1, 'the unanswered one again, not the answered');
});

test('the file picker refuses SVG, other types and files over 1 MiB in the host\'s words', () => {
  assert.match(iconFileProblem({ name: 'logo.svg', type: 'image/svg+xml', size: 300 }), /^SVG is not accepted/);
  assert.match(iconFileProblem({ name: 'logo.SVG', type: '', size: 300 }), /^SVG is not accepted/);
  assert.equal(iconFileProblem({ name: 'a.gif', type: 'image/gif', size: 300 }), 'not a PNG, JPEG or WebP image');
  assert.equal(iconFileProblem({ name: 'big.jpg', type: 'image/jpeg', size: 20 << 20 }),
    'the image is 20971520 bytes; at most 1 MiB (1048576 bytes)');
  assert.equal(iconFileProblem({ name: 'ok.jpg', type: 'image/jpeg', size: MAX_ICON_BYTES }), '');
  assert.equal(iconFileProblem({ name: 'ok.webp', type: 'image/webp', size: 10 }), '');
  assert.equal(iconFileProblem({ name: 'photo', type: '', size: 10 }), '', 'no type known: the host reads the bytes');
});

test('a key\'s stored icon name, and the looks rule for it', () => {
  assert.equal(imageName({ icon: { image: 'e240ea36.png' } }), 'e240ea36.png');
  assert.equal(imageName({ icon: { image: '../x.png' } }), null);
  assert.equal(imageName({ icon: { emoji: '★' } }), null);
  assert.equal(lookError({ icon: { image: 'e240ea36.png' } }), null);
  assert.equal(lookError({ icon: { image: 'x.png' } }), 'badIcon');
  assert.equal(lookError({ icon: { image: 3 } }), 'malformed');
});
