// What a media key shows from the host's latest mediaState (PROTOCOL §6 "What a media key shows").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mediaLook, NO_PLAYER, nowPlayingLook, readMediaState } from '../core/media-state.js';

const PLAY = { label: 'Play/Pause', kind: 'media', action: 'playPause' };
const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/messages/mediaState.json', import.meta.url)));

test('a play/pause key shows the mark its press would do, and the player', () => {
  assert.deepEqual(mediaLook(PLAY, fixture), { look: 'playing', mark: 'pause', caption: 'Playing · Track One' });
  assert.deepEqual(mediaLook(PLAY, { status: 'playing', player: 'testplayer' }),
    { look: 'playing', mark: 'pause', caption: 'Playing · testplayer' });
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

test('a now-playing tile shows the track, its art and the position moved on while playing', () => {
  const state = readMediaState(fixture, 1000);
  assert.equal(state.title, 'Track One');
  const look = nowPlayingLook(state, 3000);
  assert.equal(look.title, 'Track One');
  assert.equal(look.artist, 'The Fakes');
  assert.ok(look.art.startsWith('data:image/png;base64,'));
  assert.equal(look.progress, (12.25 + 2) / 215.5, 'two seconds later, two seconds further');
  const paused = nowPlayingLook(readMediaState({ ...fixture, status: 'paused' }, 1000), 9000);
  assert.equal(paused.progress, 12.25 / 215.5, 'a paused track stays where it is');
  assert.equal(readMediaState({ ...fixture, art: 'https://example.org/x.png' }).art, undefined, 'art is only a PNG data URL');
  assert.deepEqual(nowPlayingLook(NO_PLAYER), { look: 'idle', title: 'Nothing playing', artist: '', art: '', progress: null });
});
