import { useTranslation } from 'react-i18next';

/** A section whose data is on its way. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="staff-orders__loading" aria-busy="true">
      {t('common:loading')}
    </p>
  );
}

/** A section whose data could not be read (the connection, or the engine refused). */
export function LoadFailed() {
  const { t } = useTranslation('staffOrders');
  return (
    <div className="card staff-orders__error" role="alert">
      <p>{t('loadFailed')}</p>
      <button
        type="button"
        className="button button--small"
        onClick={() => window.location.reload()}
      >
        {t('retry')}
      </button>
    </div>
  );
}
