import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CloseIcon } from '#app/components/icons.ts';

import { notify, useNotifications, type Notification } from './store.ts';

/** How long a notification stays, unless the pointer or focus is on it. */
const DURATION_MS: Record<Notification['kind'], number> = { success: 5_000, error: 10_000 };

/**
 * The notifications of `notify`, in two live regions that exist from the first render (so screen
 * readers announce what is added): successes politely, errors at once.
 */
export function Toaster() {
  const items = useNotifications((state) => state.items);
  return (
    <div className="toasts">
      <div role="status" aria-live="polite" className="toasts__list">
        {items
          .filter((item) => item.kind === 'success')
          .map((item) => (
            <Toast key={item.id} item={item} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="toasts__list">
        {items
          .filter((item) => item.kind === 'error')
          .map((item) => (
            <Toast key={item.id} item={item} />
          ))}
      </div>
    </div>
  );
}

function Toast({ item }: { item: Notification }) {
  const { t } = useTranslation();
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => notify.dismiss(item.id), DURATION_MS[item.kind]);
    return () => clearTimeout(timer);
  }, [paused, item.id, item.kind]);

  const title = item.title ?? (item.kind === 'error' ? t('notify.error') : t('notify.success'));
  const description =
    item.description ?? (item.kind === 'error' ? t('notify.somethingWentWrong') : undefined);

  return (
    <div
      className={`toast toast--${item.kind}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="toast__body">
        <p className="toast__title">{title}</p>
        {description ? <p className="toast__text">{description}</p> : null}
      </div>
      <button
        type="button"
        className="toast__close"
        onClick={() => notify.dismiss(item.id)}
        aria-label={t('notify.dismiss')}
      >
        <CloseIcon aria-hidden="true" size={18} />
      </button>
    </div>
  );
}
