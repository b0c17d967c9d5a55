import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A list that could not be loaded: why, announced, and a button to try again. */
export function LoadFailed({
  message,
  onRetry,
}: {
  message: string;
  onRetry: () => Promise<unknown>;
}) {
  const { t } = useTranslation('staffTeam');
  const [retrying, setRetrying] = useState(false);
  return (
    <div className="card team-alert" role="alert">
      <p>{message}</p>
      <button
        type="button"
        className="button button--small"
        disabled={retrying}
        aria-busy={retrying || undefined}
        onClick={() => {
          setRetrying(true);
          onRetry()
            .catch(() => undefined)
            .finally(() => setRetrying(false));
        }}
      >
        {t('retry')}
      </button>
    </div>
  );
}
