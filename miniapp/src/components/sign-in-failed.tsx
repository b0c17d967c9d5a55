import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { LANGUAGE_TAGS, localeOrDefault } from '@app/shared/i18n';
import { keyFromData, translateData } from '@app/client/i18n/i18n.ts';

import { signIn } from '../sign-in.ts';
import { closeApp } from '../telegram/sdk.ts';

const KNOWN = new Set([
  'invalid-init-data',
  'init-data-expired',
  'init-data-from-future',
  'too-many-requests',
  'user-disabled',
  'network-error',
]);
/** Codes after which asking again with the same launch data cannot help. */
const FINAL = new Set(['invalid-init-data', 'init-data-expired', 'user-disabled']);

/** The BCP 47 tag of the page's locale (ua is uk-UA). */
const languageTag = (locale: string | undefined) => LANGUAGE_TAGS[localeOrDefault(locale)];

/** A wait in whole minutes (at least one), in the page's language: "6 minutes", "6 минут". */
export function waitText(locale: string, seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: 'minute',
    unitDisplay: 'long',
  }).format(minutes);
}

/** Why the silent sign-in failed, in words, and what the person can do about it. */
export function SignInFailed({
  code,
  retryAfter,
}: {
  code: string;
  retryAfter?: number | undefined;
}) {
  const { t, i18n } = useTranslation('miniapp');
  const key = KNOWN.has(code) ? code : 'other';
  // The service's Retry-After, or a minute when it gave none.
  const wait = waitText(languageTag(i18n.resolvedLanguage), retryAfter ?? 60);
  return (
    <main className="screen centered">
      <Placeholder
        header={<span role="alert">{t(keyFromData(`signIn.${key}.title`))}</span>}
        description={translateData(t, `miniapp:signIn.${key}.text`, { wait })}
        action={
          // Nothing to try again with this launch: the way on is to close it and open the bot.
          FINAL.has(code) ? (
            <Button size="m" mode="bezeled" onClick={() => closeApp()}>
              {t('signIn.close')}
            </Button>
          ) : (
            <Button size="m" onClick={() => void signIn()}>
              {t('signIn.retry')}
            </Button>
          )
        }
      />
    </main>
  );
}
