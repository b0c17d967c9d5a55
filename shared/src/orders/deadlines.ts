import { formatDateTime } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';
// The window helpers alone, not the quote math's index: the mini-app's order screen would
// otherwise carry decimal.js.
import { processingAt, windowFromColumns } from '../quote/window.ts';

/*
 * The order's deadlines as people read them (issue 10, docs/decisions/015-order-trust.md):
 * what is left until a moment, the direction's working hours in their own UTC offset, and
 * absolute times that render the same on the server and in the browser. Pure, so the order
 * page, the secret-link page and the mini-app can share them.
 */

/** What is left until a deadline, split as the countdown texts show it. */
export type Remaining =
  | { kind: 'overdue' }
  | { kind: 'hours'; hours: number; minutes: number }
  | { kind: 'minutes'; minutes: number; seconds: string };

/**
 * The time left from `now` to `deadline` (ms since the epoch): an hour or more as hours and
 * minutes, less as minutes and two-digit seconds, nothing left as overdue. Rounded down, so a
 * countdown never promises a second that is not there.
 */
export function remainingUntil(deadline: number, now: number): Remaining {
  const left = Math.floor((deadline - now) / 1000);
  if (left <= 0) return { kind: 'overdue' };
  if (left >= 3600) {
    return {
      kind: 'hours',
      hours: Math.floor(left / 3600),
      minutes: Math.floor((left % 3600) / 60),
    };
  }
  return {
    kind: 'minutes',
    minutes: Math.floor(left / 60),
    seconds: String(left % 60).padStart(2, '0'),
  };
}

/** A fixed UTC offset as the working-hours text shows it: 180 → `+3`, 330 → `+5:30`, -240 → `-4`. */
export function utcOffsetLabel(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const hours = Math.floor(absolute / 60);
  const minutes = absolute % 60;
  return minutes === 0 ? `${sign}${hours}` : `${sign}${hours}:${String(minutes).padStart(2, '0')}`;
}

export interface DirectionWindowColumns {
  window_start: string | null;
  window_end: string | null;
  window_cutoff: string | null;
  window_utc_offset_minutes: number | null;
}

/**
 * When the operators of a direction come back, if they are away at `now` (outside the daily
 * window or past its cut-off): the opening as `HH:MM` in the window's own offset, with that
 * offset's label. `null` when the direction has no window or it is open.
 */
export function operatorsOffline(
  columns: DirectionWindowColumns | null | undefined,
  now: Date,
): { at: string; time: string; offset: string } | null {
  const window = columns ? windowFromColumns(columns) : null;
  if (!window) return null;
  const processing = processingAt(window, now);
  if (processing.mode !== 'next-window' || !processing.at) return null;
  const local = new Date(Date.parse(processing.at) + window.utcOffsetMinutes * 60_000);
  const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
  return { at: processing.at, time, offset: utcOffsetLabel(window.utcOffsetMinutes) };
}

/**
 * A date and time in the page's language. `utc`: in UTC with the zone named, which is what a
 * server render shows (it cannot know the reader's zone); the browser then shows local time.
 */
export function formatMoment(iso: string, locale: Locale, utc = false): string {
  const text = formatDateTime(iso, locale, utc ? { timeZone: 'UTC' } : {});
  return utc ? `${text} UTC` : text;
}

/** Less than this is left to pay: the countdown warns. */
export const EXPIRING_SOON_MS = 5 * 60_000;
