import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="centered">
      <Placeholder
        header={<h1 className="placeholder-title">{t('errors.notFoundTitle')}</h1>}
        action={
          <Button size="m" onClick={() => void navigate('/')}>
            {t('miniapp:nav.newExchange')}
          </Button>
        }
      />
    </div>
  );
}
