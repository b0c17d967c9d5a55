import { describe, expect, it } from 'vitest';

import { formatMoment, operatorsOffline, remainingUntil, utcOffsetLabel } from './deadlines.ts';

const NOW = Date.parse('2025-11-21T10:00:00.000Z');

describe('remainingUntil', () => {
  it.each([
    [0, { kind: 'overdue' }],
    [-5_000, { kind: 'overdue' }],
    [999, { kind: 'overdue' }],
    [1_000, { kind: 'minutes', minutes: 0, seconds: '01' }],
    [9 * 60_000 + 59_999, { kind: 'minutes', minutes: 9, seconds: '59' }],
    [59 * 60_000 + 59_000, { kind: 'minutes', minutes: 59, seconds: '59' }],
    [3_600_000, { kind: 'hours', hours: 1, minutes: 0 }],
    [26 * 3_600_000 + 5 * 60_000 + 30_000, { kind: 'hours', hours: 26, minutes: 5 }],
  ])('%i ms ahead', (ahead, expected) => {
    expect(remainingUntil(NOW + ahead, NOW)).toEqual(expected);
  });

  it('an unreadable deadline is overdue, not NaN', () => {
    expect(remainingUntil(Number.NaN, NOW)).toEqual({ kind: 'overdue' });
  });
});

describe('utcOffsetLabel', () => {
  it.each([
    [180, '+3'],
    [0, '+0'],
    [330, '+5:30'],
    [-240, '-4'],
    [-570, '-9:30'],
  ])('%i minutes', (minutes, label) => {
    expect(utcOffsetLabel(minutes)).toBe(label);
  });
});

describe('operatorsOffline', () => {
  // Spec section 9: 09:00 to 23:00 at UTC+3, orders after 22:30 the next day.
  const DIRECTION = {
    window_start: '09:00:00',
    window_end: '23:00:00',
    window_cutoff: '22:30:00',
    window_utc_offset_minutes: 180,
  };

  it('is null without a window or inside it', () => {
    expect(operatorsOffline(null, new Date(NOW))).toBeNull();
    expect(
      operatorsOffline(
        {
          window_start: null,
          window_end: null,
          window_cutoff: null,
          window_utc_offset_minutes: null,
        },
        new Date(NOW),
      ),
    ).toBeNull();
    // 13:00 local.
    expect(operatorsOffline(DIRECTION, new Date(NOW))).toBeNull();
  });

  it('after the cut-off: the next morning, in the window’s own offset', () => {
    expect(operatorsOffline(DIRECTION, new Date('2025-11-21T19:45:00.000Z'))).toEqual({
      at: '2025-11-22T06:00:00.000Z',
      time: '09:00',
      offset: '+3',
    });
  });

  it('before the opening: later the same day', () => {
    expect(operatorsOffline(DIRECTION, new Date('2025-11-21T04:10:00.000Z'))).toEqual({
      at: '2025-11-21T06:00:00.000Z',
      time: '09:00',
      offset: '+3',
    });
  });

  it('an offset with minutes and a window without a cut-off', () => {
    const direction = {
      window_start: '08:30',
      window_end: '20:00',
      window_cutoff: null,
      window_utc_offset_minutes: 330,
    };
    // 20:00 local (UTC+5:30) is closed: the next opening is 08:30 local the next day.
    expect(operatorsOffline(direction, new Date('2025-11-21T14:30:00.000Z'))).toEqual({
      at: '2025-11-22T03:00:00.000Z',
      time: '08:30',
      offset: '+5:30',
    });
  });
});

describe('formatMoment', () => {
  it('in the person’s language', () => {
    const iso = '2025-11-21T14:30:00.000Z';
    expect(formatMoment(iso, 'en', 'UTC')).toContain('2:30');
    expect(formatMoment(iso, 'ru', 'UTC')).toContain('14:30');
    expect(formatMoment(iso, 'ua', 'UTC')).toContain('14:30');
    expect(formatMoment(iso, 'en', 'UTC')).toContain('2025');
  });
});
