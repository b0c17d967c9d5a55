import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * The staff console's section states: on its way (`Loading`), could not be read (`LoadFailed`,
 * with a button to try again), and nothing to show (`EmptyState`).
 */

/** A section whose data is on its way. */
export function Loading({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <p role="status" className={className} aria-busy="true">
      {t('common:loading')}
    </p>
  );
}

/**
 * Tries the load again. When `onRetry` returns a promise the button stays busy until it settles;
 * without `onRetry` it reloads the page.
 */
export function RetryButton({
  onRetry,
  small = false,
}: {
  onRetry?: (() => unknown) | undefined;
  small?: boolean;
}) {
  const { t } = useTranslation('staff');
  const [retrying, setRetrying] = useState(false);
  return (
    <button
      type="button"
      className={small ? 'button button--small' : 'button'}
      disabled={retrying || undefined}
      aria-busy={retrying || undefined}
      onClick={() => {
        if (!onRetry) {
          window.location.reload();
          return;
        }
        const result = onRetry();
        if (isPromiseLike(result)) {
          setRetrying(true);
          Promise.resolve(result)
            .catch(() => undefined)
            .finally(() => setRetrying(false));
        }
      }}
    >
      {onRetry ? t('retry') : t('reload')}
    </button>
  );
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Data that could not be read: why, announced, and a button to try again (or reload). */
export function LoadFailed({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry?: (() => unknown) | undefined;
  /** The card's look on this page. */
  className: string;
}) {
  return (
    <div className={`card ${className}`} role="alert">
      <p>{message}</p>
      <RetryButton onRetry={onRetry} small />
    </div>
  );
}

/** Nothing to show: a title, announced when `alert`, and what to do (a link, a button). */
export function EmptyState({
  title,
  alert = false,
  children,
}: {
  title: ReactNode;
  alert?: boolean;
  children?: ReactNode;
}) {
  return (
    <section className="card empty-state" role={alert ? 'alert' : undefined}>
      <p className="empty-state__title">{title}</p>
      {children}
    </section>
  );
}
