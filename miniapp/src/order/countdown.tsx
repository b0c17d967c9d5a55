import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { remainingUntil } from '@app/shared/orders/deadlines';

/*
 * Live deadlines (issue 10). The mini-app renders only in the browser, so a countdown ticks from
 * its first paint. Each countdown owns its timer: the second-by-second re-render is a line of
 * text, never the whole order.
 */

/** The current time in ms since the epoch, updated every `intervalMs`. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** What is left until `until` (ISO 8601) at `now`, worded: `12:05`, `3 h 20 min`, `overdue`. */
export function useRemainingText(until: string, now: number): string {
  const { t } = useTranslation('trust');
  const remaining = remainingUntil(Date.parse(until), now);
  switch (remaining.kind) {
    case 'overdue':
      return t('countdown.overdue');
    case 'hours':
      return t('countdown.hoursMinutes', { hours: remaining.hours, minutes: remaining.minutes });
    case 'minutes':
      return t('countdown.minutesSeconds', {
        minutes: remaining.minutes,
        seconds: remaining.seconds,
      });
  }
}

/**
 * A countdown to `until`, ticking every second: `children` words the time left (`Pay within
 * {{time}}`) and gets whether less than `warnMs` is left. A timer to assistive technology
 * (`role="timer"`), not announced on every tick even inside a live region.
 */
export function Countdown(props: {
  until: string;
  children: (time: string, state: { overdue: boolean; warning: boolean }) => ReactNode;
  warnMs?: number;
  className?: string;
}) {
  const now = useNow();
  const time = useRemainingText(props.until, now);
  const left = Date.parse(props.until) - now;
  const overdue = !(left >= 1000);
  const warning = !overdue && props.warnMs !== undefined && left < props.warnMs;
  const classes = ['countdown', props.className, warning || overdue ? 'countdown--urgent' : null]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={classes} role="timer" aria-live="off" aria-atomic="true">
      {props.children(time, { overdue, warning })}
    </span>
  );
}
