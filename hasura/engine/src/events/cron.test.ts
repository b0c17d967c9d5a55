import { describe, expect, it } from 'vitest';

import { cronPayload, nextOccurrences, validateSchedule, type CronTriggerRuntime } from './cron.ts';

describe('cron schedules', () => {
  it('accepts 5-field expressions and the standard macros', () => {
    for (const schedule of [
      '* * * * *',
      '*/15 0-6 * * MON-FRI',
      '0 0 1 jan *',
      '@daily',
      '@hourly',
    ]) {
      expect(() => validateSchedule('t', schedule)).not.toThrow();
    }
  });

  it('refuses other field counts and invalid fields', () => {
    expect(() => validateSchedule('t', '0 * * * * *')).toThrow(/5-field/);
    expect(() => validateSchedule('t', '* * * *')).toThrow(/5-field/);
    expect(() => validateSchedule('t', '@secondly')).toThrow(/5-field/);
    expect(() => validateSchedule('t', '61 * * * *')).toThrow(/61/);
  });

  it('computes occurrences in UTC, strictly after the start', () => {
    const times = nextOccurrences('30 2 * * *', new Date('2024-03-30T02:30:00Z'), 3).map((time) =>
      time.toISOString(),
    );
    expect(times).toEqual([
      '2024-03-31T02:30:00.000Z',
      '2024-04-01T02:30:00.000Z',
      '2024-04-02T02:30:00.000Z',
    ]);
  });

  it('matches day of month or day of week when both are given (Vixie cron)', () => {
    const times = nextOccurrences('0 0 13 * 5', new Date('2024-01-01T00:00:00Z'), 4).map((time) =>
      time.toISOString().slice(0, 10),
    );
    expect(times).toEqual(['2024-01-05', '2024-01-12', '2024-01-13', '2024-01-19']);
  });

  it('refuses a day that the month never has', () => {
    expect(() => validateSchedule('t', '0 0 30 2 *')).toThrow(/day of month/);
  });
});

describe('cron payload', () => {
  const trigger = {
    name: 'rates_refresh',
    payload: { source: 'cron' },
    comment: undefined,
  } as unknown as CronTriggerRuntime;

  it("has Hasura's shape; comment only when set", () => {
    expect(cronPayload({ id: 'e1', scheduled_time: '2024-01-01T00:05:00Z' }, trigger)).toEqual({
      scheduled_time: '2024-01-01T00:05:00Z',
      payload: { source: 'cron' },
      name: 'rates_refresh',
      id: 'e1',
    });
    expect(
      cronPayload({ id: 'e1', scheduled_time: 'x' }, { ...trigger, comment: 'hi' }),
    ).toHaveProperty('comment', 'hi');
  });
});
