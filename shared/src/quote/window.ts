import type { DailyWindow, Processing } from './types.ts';

const DAY_MS = 86_400_000;
const TIME_OF_DAY = /^([01]\d|2[0-4]):([0-5]\d)(?::([0-5]\d))?$/;

/** Seconds since local midnight of `HH:MM[:SS]` (Postgres `time` text); `null` when malformed. */
export function parseTimeOfDay(value: string): number | null {
  const match = TIME_OF_DAY.exec(value);
  if (!match) return null;
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
  return seconds <= 86_400 ? seconds : null;
}

/** A window whose times parse and are ordered `start < cutoff ≤ end`; `false` otherwise. */
export function isValidWindow(window: DailyWindow): boolean {
  const start = parseTimeOfDay(window.start);
  const end = parseTimeOfDay(window.end);
  const cutoff = window.cutoff == null ? end : parseTimeOfDay(window.cutoff);
  return (
    start !== null &&
    end !== null &&
    cutoff !== null &&
    start < cutoff &&
    cutoff <= end &&
    Number.isInteger(window.utcOffsetMinutes) &&
    Math.abs(window.utcOffsetMinutes) <= 14 * 60
  );
}

/**
 * When an order placed at `now` is processed (spec section 9). Local time is `now` shifted by
 * the window's fixed offset (the spec states UTC+3, not a zone with daylight saving). An order
 * at or after `start` and strictly before `cutoff` (or `end` without a cut-off) is processed now;
 * any other order at the next `start`: later today if it is still before `start`, else tomorrow.
 * So with 09:00–23:00 and cut-off 22:30, 22:29:59 is "now" and 22:30:00 is "tomorrow 09:00".
 * `window` must satisfy {@link isValidWindow}.
 */
export function processingAt(window: DailyWindow | null | undefined, now: Date): Processing {
  if (!window) return { mode: 'now' };
  const start = parseTimeOfDay(window.start) ?? 0;
  const close = parseTimeOfDay(window.cutoff ?? window.end) ?? 0;
  const offsetMs = window.utcOffsetMinutes * 60_000;
  const localMs = now.getTime() + offsetMs;
  const localMidnight = Math.floor(localMs / DAY_MS) * DAY_MS;
  const secondOfDay = (localMs - localMidnight) / 1000;
  if (secondOfDay >= start && secondOfDay < close) return { mode: 'now' };
  const openingDay = secondOfDay < start ? localMidnight : localMidnight + DAY_MS;
  return { mode: 'next-window', at: new Date(openingDay + start * 1000 - offsetMs).toISOString() };
}

/**
 * The window of a `public.exchange_directions` row (its `window_*` columns), or `null` when
 * the direction has none.
 */
export function windowFromColumns(row: {
  window_start: string | null;
  window_end: string | null;
  window_cutoff: string | null;
  window_utc_offset_minutes: number | null;
}): DailyWindow | null {
  if (row.window_start === null || row.window_end === null) return null;
  return {
    start: row.window_start,
    end: row.window_end,
    cutoff: row.window_cutoff,
    utcOffsetMinutes: row.window_utc_offset_minutes ?? 0,
  };
}
