import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

/** A load that failed, with the way to try again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('miniapp');
  return (
    <div className="centered">
      <Placeholder
        header={<span role="alert">{t('loadFailed')}</span>}
        action={
          <Button size="m" onClick={onRetry}>
            {t('retry')}
          </Button>
        }
      />
    </div>
  );
}
