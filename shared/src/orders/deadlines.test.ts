import { describe, expect, it } from 'vitest';

import { formatMoment, operatorsOffline, remainingUntil, utcOffsetLabel } from './deadlines.ts';

describe('remainingUntil', () => {
  const now = Date.parse('2025-11-21T10:00:00.000Z');
  it.each([
    ['nothing left', 0, { kind: 'overdue' }],
    ['past', -5_000, { kind: 'overdue' }],
    ['under a second', 999, { kind: 'overdue' }],
    ['one second', 1_000, { kind: 'minutes', minutes: 0, seconds: '01' }],
    ['a half-second more is not promised', 61_500, { kind: 'minutes', minutes: 1, seconds: '01' }],
    ['just under an hour', 3_599_000, { kind: 'minutes', minutes: 59, seconds: '59' }],
    ['an hour', 3_600_000, { kind: 'hours', hours: 1, minutes: 0 }],
    ['a day', 86_400_000, { kind: 'hours', hours: 24, minutes: 0 }],
    ['2 h 5 min 59 s', 7_559_000, { kind: 'hours', hours: 2, minutes: 5 }],
  ])('%s', (_, delta, expected) => {
    expect(remainingUntil(now + delta, now)).toEqual(expected);
  });
});

describe('utcOffsetLabel', () => {
  it.each([
    [180, '+3'],
    [0, '+0'],
    [330, '+5:30'],
    [-240, '-4'],
    [-570, '-9:30'],
  ])('%i minutes is UTC%s', (minutes, label) => {
    expect(utcOffsetLabel(minutes)).toBe(label);
  });
});

describe('operatorsOffline', () => {
  // Spec section 9: 09:00 to 23:00 at UTC+3, the cut-off at 22:30.
  const window = {
    window_start: '09:00:00',
    window_end: '23:00:00',
    window_cutoff: '22:30:00',
    window_utc_offset_minutes: 180,
  };

  it('is null without a window, or while the window is open', () => {
    expect(operatorsOffline(null, new Date('2025-11-21T10:00:00Z'))).toBeNull();
    expect(
      operatorsOffline(
        {
          window_start: null,
          window_end: null,
          window_cutoff: null,
          window_utc_offset_minutes: null,
        },
        new Date('2025-11-21T10:00:00Z'),
      ),
    ).toBeNull();
    expect(operatorsOffline(window, new Date('2025-11-21T10:00:00Z'))).toBeNull();
  });

  it('names the next opening in the window’s own offset, past the cut-off and at night', () => {
    expect(operatorsOffline(window, new Date('2025-11-21T19:30:00Z'))).toEqual({
      at: '2025-11-22T06:00:00.000Z',
      time: '09:00',
      offset: '+3',
    });
    expect(operatorsOffline(window, new Date('2025-11-22T03:00:00Z'))).toEqual({
      at: '2025-11-22T06:00:00.000Z',
      time: '09:00',
      offset: '+3',
    });
  });

  it('keeps minutes and half-hour offsets', () => {
    const india = {
      window_start: '08:15:00',
      window_end: '20:00:00',
      window_cutoff: null,
      window_utc_offset_minutes: 330,
    };
    expect(operatorsOffline(india, new Date('2025-11-21T20:00:00Z'))).toEqual({
      at: '2025-11-22T02:45:00.000Z',
      time: '08:15',
      offset: '+5:30',
    });
  });
});

describe('formatMoment', () => {
  it('names UTC when asked (what a server render shows)', () => {
    const text = formatMoment('2025-11-21T19:30:00Z', 'en', true);
    expect(text).toContain('UTC');
    expect(text).toContain('7:30');
  });
});
