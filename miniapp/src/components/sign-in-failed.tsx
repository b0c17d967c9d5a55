import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { keyFromData } from '@app/client/i18n/i18n.ts';

import { signIn } from '../sign-in.ts';

const KNOWN = new Set(['invalid-init-data', 'init-data-expired', 'user-disabled', 'network-error']);
/** Codes after which asking again with the same launch data cannot help. */
const FINAL = new Set(['invalid-init-data', 'init-data-expired', 'user-disabled']);

/** Why the silent sign-in failed, in words, and what the person can do about it. */
export function SignInFailed({ code }: { code: string }) {
  const { t } = useTranslation('miniapp');
  const key = KNOWN.has(code) ? code : 'other';
  return (
    <main className="screen centered">
      <Placeholder
        header={<span role="alert">{t(keyFromData(`signIn.${key}.title`))}</span>}
        description={t(keyFromData(`signIn.${key}.text`))}
        action={
          FINAL.has(code) ? undefined : (
            <Button size="m" onClick={() => void signIn()}>
              {t('signIn.retry')}
            </Button>
          )
        }
      />
    </main>
  );
}
