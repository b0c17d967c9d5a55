import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { browserEnv } from '../env.ts';

/** Opened in a plain browser (production): the app needs Telegram's sign-in; the site does not. */
export function OutsideTelegram() {
  const { t } = useTranslation('miniapp');
  return (
    <main className="screen centered">
      <Placeholder
        header={<h1 className="placeholder-title">{t('outside.title')}</h1>}
        description={t('outside.text')}
        action={
          <Button size="m" Component="a" href={browserEnv().PUBLIC_SITE_URL}>
            {t('outside.website')}
          </Button>
        }
      />
    </main>
  );
}
