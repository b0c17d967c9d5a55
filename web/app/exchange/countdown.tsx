import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { formatMoment, remainingUntil } from '@app/shared/orders/deadlines';

import { useLocale } from '#app/i18n/locale.ts';

/*
 * Deadlines on screen (issue 10). A server render cannot know the reader's clock or time zone,
 * so before the page is mounted these show the absolute moment in UTC, identical on the server
 * and in the first browser render (no hydration mismatch); once mounted, the reader's local
 * time, and a countdown that ticks every second.
 */

/** The current time in ms, updated every `intervalMs`; `null` until the component is mounted. */
export function useNow(intervalMs = 1000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** True once mounted in a browser. */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** An absolute moment as text: in UTC until mounted, then in the reader's own time zone. */
export function useMomentText(iso: string | null | undefined): string {
  const locale = useLocale();
  const mounted = useMounted();
  return iso ? formatMoment(iso, locale, !mounted) : '';
}

/** An absolute moment: in UTC while server-rendered, then in the reader's own time zone. */
export function Moment({ iso }: { iso: string }) {
  const text = useMomentText(iso);
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}

/** What is left until `until` as the countdown texts word it (`12:05`, `3 h 20 min`, overdue). */
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

export interface CountdownProps {
  /** The deadline (ISO 8601). */
  until: string;
  /** The sentence around the time left, e.g. `(time) => t('deadlines.payWithin', { time })`. */
  children: (time: string) => ReactNode;
  /**
   * What a server render (and the first browser render) shows instead, given the absolute
   * moment in UTC, e.g. `(moment) => t('deadlines.payBy', { time: moment })`; by default the
   * moment alone.
   */
  fallback?: (moment: string) => ReactNode;
  className?: string;
}

/**
 * A live countdown to `until`, ticking every second once mounted. It is a timer to assistive
 * technology (`role="timer"`, not announced on every tick, even inside a live region).
 */
export function Countdown({ until, children, fallback, className }: CountdownProps) {
  const locale = useLocale();
  const now = useNow();
  const classes = `countdown${className ? ` ${className}` : ''}`;
  if (now === null) {
    const moment = formatMoment(until, locale, true);
    return (
      <span className={classes} suppressHydrationWarning>
        {fallback ? fallback(moment) : <time dateTime={until}>{moment}</time>}
      </span>
    );
  }
  return <Ticking until={until} now={now} className={classes} render={children} />;
}

function Ticking({
  until,
  now,
  className,
  render,
}: {
  until: string;
  now: number;
  className: string;
  render: (time: string) => ReactNode;
}) {
  const text = useRemainingText(until, now);
  const overdue = Date.parse(until) <= now;
  return (
    <span
      className={`${className}${overdue ? ' countdown--overdue' : ''}`}
      role="timer"
      aria-live="off"
      aria-atomic="true"
    >
      {render(text)}
    </span>
  );
}
