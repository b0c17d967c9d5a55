import { describe, expect, it } from 'vitest';

import { isValidWindow, parseTimeOfDay, processingAt, windowFromColumns } from './window.ts';

// Spec section 9: 9:00 to 23:00 at UTC+3, orders after 22:30 processed the next day.
const WINDOW = { start: '09:00:00', end: '23:00:00', cutoff: '22:30:00', utcOffsetMinutes: 180 };

describe('processingAt', () => {
  it.each([
    ['09:00:00 local, the opening itself', '2025-11-21T06:00:00.000Z', null],
    ['13:00 local', '2025-11-21T10:00:00.000Z', null],
    ['22:29:59 local', '2025-11-21T19:29:59.000Z', null],
    ['22:30:00 local, the cut-off', '2025-11-21T19:30:00.000Z', '2025-11-22T06:00:00.000Z'],
    [
      '22:45 local, before the window closes',
      '2025-11-21T19:45:00.000Z',
      '2025-11-22T06:00:00.000Z',
    ],
    ['23:30 local', '2025-11-21T20:30:00.000Z', '2025-11-22T06:00:00.000Z'],
    [
      '00:30 local, already the next UTC+3 day',
      '2025-11-21T21:30:00.000Z',
      '2025-11-22T06:00:00.000Z',
    ],
    ['08:59:59 local, same morning', '2025-11-22T05:59:59.000Z', '2025-11-22T06:00:00.000Z'],
    ['22:45 local on 31 December', '2025-12-31T19:45:00.000Z', '2026-01-01T06:00:00.000Z'],
  ])('at %s (%s)', (_, now, at) => {
    expect(processingAt(WINDOW, new Date(now))).toEqual(
      at === null ? { mode: 'now' } : { mode: 'next-window', at },
    );
  });

  it('without a cut-off the window closes at its end', () => {
    const window = { ...WINDOW, cutoff: null };
    expect(processingAt(window, new Date('2025-11-21T19:45:00.000Z'))).toEqual({ mode: 'now' });
    expect(processingAt(window, new Date('2025-11-21T20:00:00.000Z')).mode).toBe('next-window');
  });

  it('handles offsets west of UTC', () => {
    const window = { start: '08:00', end: '20:00', utcOffsetMinutes: -300 };
    // 02:00Z is 21:00 the previous day at UTC−5: next opening is 08:00 local = 13:00Z.
    expect(processingAt(window, new Date('2025-11-21T02:00:00.000Z'))).toEqual({
      mode: 'next-window',
      at: '2025-11-21T13:00:00.000Z',
    });
  });

  it('is always "now" for a direction without a window', () => {
    expect(processingAt(null, new Date('2025-11-21T23:59:00.000Z'))).toEqual({ mode: 'now' });
  });
});

describe('window helpers', () => {
  it('parses Postgres time text', () => {
    expect(parseTimeOfDay('09:00')).toBe(32_400);
    expect(parseTimeOfDay('22:30:15')).toBe(81_015);
    expect(parseTimeOfDay('24:00:00')).toBe(86_400);
    expect(parseTimeOfDay('24:01')).toBeNull();
    expect(parseTimeOfDay('9:00')).toBeNull();
  });

  it('validates ordering and offset', () => {
    expect(isValidWindow(WINDOW)).toBe(true);
    expect(isValidWindow({ ...WINDOW, start: '23:00' })).toBe(false);
    expect(isValidWindow({ ...WINDOW, cutoff: '08:00' })).toBe(false);
    expect(isValidWindow({ ...WINDOW, utcOffsetMinutes: 900 })).toBe(false);
  });

  it('maps exchange_directions columns', () => {
    expect(
      windowFromColumns({
        window_start: '09:00:00',
        window_end: '23:00:00',
        window_cutoff: '22:30:00',
        window_utc_offset_minutes: 180,
      }),
    ).toEqual(WINDOW);
    expect(
      windowFromColumns({
        window_start: null,
        window_end: null,
        window_cutoff: null,
        window_utc_offset_minutes: null,
      }),
    ).toBeNull();
  });
});
