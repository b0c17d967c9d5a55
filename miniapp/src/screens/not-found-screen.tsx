import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';

export function NotFoundScreen() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <div className="centered">
      <Placeholder
        header={<h1 className="placeholder-title">{t('errors.notFoundTitle')}</h1>}
        action={
          <Button size="m" onClick={() => navigate('/')}>
            {t('miniapp:nav.newExchange')}
          </Button>
        }
      />
    </div>
  );
}
