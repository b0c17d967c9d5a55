import { useTranslation } from 'react-i18next';

import { ctaCurrencyLabel } from '#app/components/content/content-page.tsx';
import type { PageCta } from '#app/content/pages/types.ts';

import { PairRateText, usePortalPairRate } from './pair-rate.tsx';

/**
 * "Rate now" on a product or partner page: the live rate of the page's pair (its call to
 * action), refreshed while the page is open; a signed-in person with a better level or custom
 * rate sees theirs beside it.
 */
export function PairRateSection({ cta }: { cta: PageCta }) {
  const { t } = useTranslation('pages');
  const state = usePortalPairRate(cta.from, cta.to);
  const currency = (code: string) => ({ code, symbol: ctaCurrencyLabel(code, t) });
  return (
    <section className="content-section pair-rate-section" aria-labelledby="pair-rate-title">
      <h2 id="pair-rate-title">{t('home:widget.rateNow')}</h2>
      <p className="lead" role="status" aria-live="polite">
        <PairRateText state={state} from={currency(cta.from)} to={currency(cta.to)} />
      </p>
    </section>
  );
}
