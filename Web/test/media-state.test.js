// What a media key shows from the host's latest mediaState (PROTOCOL §6 "What a media key shows").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mediaLook, NO_PLAYER, readMediaState } from '../core/media-state.js';

const PLAY = { label: 'Play/Pause', kind: 'media', action: 'playPause' };
const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/messages/mediaState.json', import.meta.url)));

test('a play/pause key shows the mark its press would do, and the player', () => {
  assert.deepEqual(mediaLook(PLAY, fixture), { look: 'playing', mark: 'pause', caption: 'Playing · testplayer' });
  assert.deepEqual(mediaLook(PLAY, { status: 'paused', player: 'vlc' }),
    { look: 'paused', mark: 'play', caption: 'Paused · vlc' });
  assert.deepEqual(mediaLook(PLAY, { status: 'stopped', player: 'vlc' }),
    { look: 'stopped', mark: 'play', caption: 'Stopped · vlc' });
});

test('with no player, or before any mediaState, every media key is idle', () => {
  const idle = { look: 'idle', mark: 'play', caption: 'No player' };
  assert.deepEqual(mediaLook(PLAY), idle);
  assert.deepEqual(mediaLook(PLAY, NO_PLAYER), idle);
  assert.deepEqual(mediaLook(PLAY, { type: 'mediaState', status: 'none', player: '' }), idle);
  assert.deepEqual(mediaLook({ kind: 'media', action: 'next' }, { status: 'none', player: '' }),
    { look: 'idle', mark: 'next', caption: 'No player' });
});

test('the other actions keep their mark whatever the player does', () => {
  for (const [action, mark] of [['next', 'next'], ['previous', 'previous'], ['stop', 'stop']]) {
    for (const status of ['playing', 'paused']) {
      assert.equal(mediaLook({ kind: 'media', action }, { status, player: 'x' }).mark, mark);
    }
  }
  assert.equal(mediaLook({ kind: 'media', action: 'shuffle' }, fixture).mark, '', 'a later action has no mark');
});

test('a status this client does not know reads as no player, never as playing', () => {
  assert.equal(readMediaState({ status: 'buffering', player: 'vlc' }), NO_PLAYER);
  assert.equal(readMediaState(null), NO_PLAYER);
  assert.deepEqual(readMediaState({ status: 'playing' }), { status: 'playing', player: '' });
  assert.equal(mediaLook(PLAY, { status: 'playing' }).caption, 'Playing');
});
