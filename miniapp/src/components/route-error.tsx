import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { useEffect } from 'react';
import type { FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';

import { isChunkLoadError, reloadOnce } from '@app/client/build-check/chunk-errors.ts';

import { browserEnv } from '../env.ts';

/** Reloads once when a part of the app is gone after a deployment (spec section 2). */
export function reloadForNewBuild(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false;
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  return reloadOnce({
    storage,
    reload: () => window.location.reload(),
    buildId: browserEnv().BUILD_ID,
  });
}

/** A screen that failed: a new build is fetched, anything else is said plainly. */
export function RouteError({ error }: FallbackProps) {
  const { t } = useTranslation();
  useEffect(() => {
    reloadForNewBuild(error);
  }, [error]);
  return (
    <main className="screen centered">
      <Placeholder
        header={<span role="alert">{t('notify.error')}</span>}
        description={t('notify.somethingWentWrong')}
        action={
          <Button size="m" onClick={() => window.location.reload()}>
            {t('miniapp:retry')}
          </Button>
        }
      />
    </main>
  );
}
