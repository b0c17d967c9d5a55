import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { spanOf } from './order-steps.ts';

/*
 * The console's clocks (decision 015): late requisites show the moment they pass, on the page's
 * own clock, without waiting for the deadlines job. Before the page is mounted there is no clock
 * (`null`), so a server render and the first browser render agree.
 */

/**
 * The current time in ms, updated every `intervalMs` while `ticking` (nothing on screen counts
 * otherwise, so nothing re-renders); `null` until mounted.
 */
export function useNow(intervalMs = 1000, ticking = true): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, ticking]);
  return now;
}

/** A span of time in the page's language: `4:07`, `1 h 05 min`, `2 d 3 h`. */
export function useSpanText(): (ms: number) => string {
  const { t } = useTranslation('staffOrders');
  return (ms) => {
    const span = spanOf(ms);
    switch (span.kind) {
      case 'minutes':
        return t('time.minutesSeconds', { minutes: span.minutes, seconds: span.seconds });
      case 'hours':
        return t('time.hoursMinutes', { hours: span.hours, minutes: span.minutes });
      default:
        return t('time.daysHours', { days: span.days, hours: span.hours });
    }
  };
}

/** A warning sign, drawn (not an emoji, which fonts draw differently); its meaning is in text. */
export function WarningIcon() {
  return (
    <svg
      className="staff-orders__warning-icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M8 1.5 15 14.5H1Z" fill="currentColor" />
      <path
        className="staff-orders__warning-mark"
        d="M8 6v4.2"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <circle className="staff-orders__warning-dot" cx="8" cy="12.3" r="1" />
    </svg>
  );
}

/**
 * An order past the operator's promise: the sign, the word "Late" and how long overdue, so it
 * reads without colour (the row's highlight comes from this badge, staff-trust.css).
 */
export function LateBadge({ overdueMs }: { overdueMs: number | null }) {
  const { t } = useTranslation('staffOrders');
  const span = useSpanText();
  return (
    <span className="staff-orders__late">
      <WarningIcon />
      <strong>{t('late.badge')}</strong>
      {overdueMs !== null ? (
        <span className="staff-orders__late-timer">
          {t('late.overdue', { time: span(overdueMs) })}
        </span>
      ) : null}
    </span>
  );
}
