// A slider's value under the finger and the rate of its setSlider messages (PROTOCOL §6 "Tiles and sliders").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SliderSender, sliderLabel, sliderValue } from '../core/slider.js';

test('a row slider grows to the right, a column slider upwards, clamped to 0…1', () => {
  const rect = { left: 100, top: 50, width: 200, height: 400 };
  assert.equal(sliderValue(rect, { x: 170, y: 0 }, 'row'), 0.35);
  assert.equal(sliderValue(rect, { x: 20, y: 0 }, 'row'), 0);
  assert.equal(sliderValue(rect, { x: 999, y: 0 }, 'row'), 1);
  assert.equal(sliderValue(rect, { x: 0, y: 350 }, 'column'), 0.25);
  assert.equal(sliderValue(rect, { x: 0, y: 40 }, 'column'), 1);
});

test('a drag sends at most 20 values a second and always the last one', () => {
  let clock = 0;
  const timers = [];
  const sent = [];
  const sender = new SliderSender((v) => sent.push([clock, v]), { now: () => clock, later: (fn, ms) => timers.push([clock + ms, fn]) });
  for (let i = 1; i <= 10; i += 1) {
    clock = i * 10; // a move every 10 ms: 100 a second
    sender.move(i / 10);
    while (timers.length && timers[0][0] <= clock) timers.shift()[1]();
  }
  clock = 200;
  while (timers.length) { clock = Math.max(clock, timers[0][0]); timers.shift()[1](); }
  assert.deepEqual(sent.map(([, v]) => v), [0.1, 0.6, 1], 'the first at once, then one per 50 ms, the last always');
  for (let i = 1; i < sent.length; i += 1) assert.ok(sent[i][0] - sent[i - 1][0] >= 50);
});

test('a slider without a label is named after what it moves', () => {
  assert.equal(sliderLabel({ kind: 'slider', bind: 'speakers' }), 'Speakers');
  assert.equal(sliderLabel({ kind: 'slider', bind: 'app', app: 'Firefox' }), 'Firefox');
});
