import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { browserEnv } from '@app/client/env/public-env.ts';
import { LevelProgressDocument } from '@app/client/graphql/generated/user.ts';
import { graphqlRequest } from '@app/client/graphql/request.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { levelProgress, type LevelProgress } from '@app/shared/quote';

import { withAccessToken } from '#app/auth/session.ts';

/**
 * "Your level" on the affiliate page (issue 23): the level and the completed exchanges to the
 * next one, with a progress bar, or that the person is on the top level. Levels are reached by
 * completed orders (user_levels.min_orders, decision 010). Read once when the page opens.
 */
export function LevelProgressCard({ userId }: { userId: string }) {
  const { t } = useTranslation('account');
  const [progress, setProgress] = useState<LevelProgress | null>(null);

  useEffect(() => {
    let live = true;
    withAccessToken((token) =>
      graphqlRequest(browserEnv().PUBLIC_GRAPHQL_URL, LevelProgressDocument, { userId }, { token }),
    ).then(
      (data) => {
        if (!live) return;
        setProgress(
          levelProgress(
            data.user_levels,
            data.portal_users_by_pk?.status,
            data.transactions_aggregate.aggregate?.count ?? 0,
          ),
        );
      },
      // The level is a side note of the page: without it the rest still works.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [userId]);

  if (!progress) return null;
  // Staff may name levels the catalogs do not know; those show as stored.
  const name = (status: string) =>
    t(keyFromData(`affiliate.level.names.${status}`), { defaultValue: status });

  return (
    <section className="card level-progress" aria-labelledby="level-progress-title">
      <h2 id="level-progress-title">{t('affiliate.level.title')}</h2>
      {progress.current ? (
        <p className="level-progress__current">
          {t('affiliate.level.current', { level: name(progress.current) })}
        </p>
      ) : null}
      {progress.kind === 'next' ? (
        <>
          <p id="level-progress-text">
            {t('affiliate.level.progress', {
              done: progress.completedOrders,
              required: progress.requiredOrders,
              next: name(progress.next),
            })}
          </p>
          <progress
            className="level-progress__bar"
            value={progress.completedOrders}
            max={progress.requiredOrders}
            aria-labelledby="level-progress-text"
          />
          <p className="field__hint">{t('affiliate.level.hint')}</p>
        </>
      ) : (
        <p>{t(progress.kind === 'top' ? 'affiliate.level.top' : 'affiliate.level.manual')}</p>
      )}
    </section>
  );
}
