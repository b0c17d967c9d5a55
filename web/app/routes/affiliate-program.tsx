import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { browserEnv } from '@app/client/env/public-env.ts';
import {
  AffiliateSettingsDocument,
  AffiliateStatisticsDocument,
  BonusWithdrawalsDocument,
  ReferralHistoryDocument,
} from '@app/client/graphql/generated/user.ts';
import { percentOf, referralLink } from '@app/client/affiliate/referral.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { splitLocalePath } from '@app/shared/i18n';

import { DataTable } from '#app/account/data-table.tsx';
import { LevelProgressCard } from '#app/account/level-progress.tsx';
import { formatAmount, formatDateTime } from '#app/account/format.ts';
import { ReferralNameDialog } from '#app/account/referral-name-dialog.tsx';
import { LoadingPage, SignInPrompt } from '#app/account/sign-in-prompt.tsx';
import { Tabs } from '#app/account/tabs.tsx';
import { WithdrawForm } from '#app/account/withdraw-form.tsx';
import { useSession } from '#app/auth/session.ts';
import { useLocale } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

import type { Route } from './+types/affiliate-program';

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    ...pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t('account:affiliate.metaTitle'),
      description: t('account:affiliate.metaDescription'),
    }),
    { name: 'robots', content: 'noindex' },
  ];
};

interface Statistics {
  referral_name: string;
  accumulated_usdt: string;
  available_usdt: string;
  referral_transactions: number;
  referral_turnover_usdt: string;
  earnings_per_transaction_usdt: string;
  total_referrals: number;
}

interface ReferralRow {
  id: string;
  referral: string | null;
  transaction_number: string;
  amount_usdt: string;
  created_at: string;
}

type WithdrawalStatus = 'pending' | 'paid' | 'rejected';

interface WithdrawalRow {
  id: string;
  amount_usdt: string;
  status: WithdrawalStatus;
  reject_reason: string | null;
  created_at: string;
}

/** The newest rows each tab shows. */
const TAB_ROWS = 100;

type TabId = 'referrals' | 'withdrawals';

/**
 * The affiliate program (spec sections 2, 3, 8 and 9), signed-in users only: statistics, the
 * referral link with Copy and Edit name (a modal dialog), tabs for referral transactions and
 * bonus withdrawals, and the withdraw form. Everything is live: a new bonus, a withdrawal or a
 * staff decision shows without a reload.
 */
export default function AffiliateProgram() {
  const { t } = useTranslation('account');
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const userId = useSession((state) => state.user?.id ?? null);
  const enabled = checked && isLoggedIn;
  const limit = { limit: TAB_ROWS };
  // One root field per subscription (Hasura's rule), so four small live queries on one socket.
  const statistics = useSubscription(AffiliateStatisticsDocument, {}, enabled);
  const settings = useSubscription(AffiliateSettingsDocument, {}, enabled);
  const referrals = useSubscription(ReferralHistoryDocument, limit, enabled);
  const withdrawals = useSubscription(BonusWithdrawalsDocument, limit, enabled);

  if (checked && !isLoggedIn)
    return <SignInPrompt title={t('affiliate.title')} text={t('affiliate.signIn')} />;
  const states = [statistics, settings, referrals, withdrawals];
  if (!checked || !userId || states.some((state) => state.status === 'loading'))
    return <LoadingPage />;
  // The views' columns are nullable in PostgreSQL's catalogue (every view column is), though
  // their definitions never yield a null; the page's row types say so.
  const stats =
    statistics.status === 'live'
      ? (statistics.data.affiliate_statistics[0] as Statistics | undefined)
      : undefined;
  if (
    !stats ||
    settings.status !== 'live' ||
    referrals.status !== 'live' ||
    withdrawals.status !== 'live'
  ) {
    return (
      <main id="main" className="container section">
        <h1>{t('affiliate.title')}</h1>
        <p role="alert">{t('common:notify.somethingWentWrong')}</p>
      </main>
    );
  }

  return (
    <AffiliatePage
      userId={userId}
      stats={stats}
      rate={settings.data.affiliate_settings[0]?.accrual_rate ?? '0'}
      referrals={referrals.data.referral_history as ReferralRow[]}
      withdrawals={withdrawals.data.bonus_withdrawals as WithdrawalRow[]}
    />
  );
}

function AffiliatePage({
  userId,
  stats,
  rate,
  referrals,
  withdrawals,
}: {
  userId: string;
  stats: Statistics;
  rate: string;
  referrals: ReferralRow[];
  withdrawals: WithdrawalRow[];
}) {
  const { t } = useTranslation('account');
  const locale = useLocale();
  const [tab, setTab] = useState<TabId>('referrals');
  const [editing, setEditing] = useState(false);
  // The saved name until the live statistics bring it (at most a second later).
  const [savedName, setSavedName] = useState<string | null>(null);
  useEffect(() => setSavedName(null), [stats.referral_name]);
  const name = savedName ?? stats.referral_name;
  const editButton = useRef<HTMLButtonElement>(null);
  const percent = percentOf(rate);
  const usdt = (amount: string) =>
    t('affiliate.stats.usdt', { amount: formatAmount(amount, locale) });

  const figures: Array<[string, string]> = [
    [t('affiliate.stats.accumulated'), usdt(stats.accumulated_usdt)],
    [t('affiliate.stats.available'), usdt(stats.available_usdt)],
    [t('affiliate.stats.perTransaction'), usdt(stats.earnings_per_transaction_usdt)],
    [t('affiliate.stats.turnover'), usdt(stats.referral_turnover_usdt)],
    [t('affiliate.stats.referrals'), String(stats.total_referrals)],
    [t('affiliate.stats.rate'), t('affiliate.stats.percent', { rate: percent })],
  ];

  return (
    <main id="main" className="container section account-page">
      <h1>{t('affiliate.title')}</h1>
      <p className="lead">{t('affiliate.intro', { rate: percent })}</p>

      <section aria-labelledby="affiliate-stats-title">
        <h2 id="affiliate-stats-title">{t('affiliate.stats.title')}</h2>
        <dl className="stats">
          {figures.map(([label, value]) => (
            <div key={label} className="stats__item card">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <LevelProgressCard userId={userId} />

      <section className="card referral-link" aria-labelledby="referral-link-title">
        <h2 id="referral-link-title">{t('affiliate.link.title')}</h2>
        <ReferralLink name={name} />
        <button
          ref={editButton}
          type="button"
          className="button button--small"
          aria-haspopup="dialog"
          onClick={() => setEditing(true)}
        >
          {t('affiliate.link.edit')}
        </button>
      </section>

      <ReferralNameDialog
        open={editing}
        userId={userId}
        current={name}
        onClose={() => {
          if (!editing) return;
          setEditing(false);
          editButton.current?.focus();
        }}
        onSaved={setSavedName}
      />

      <Tabs<TabId>
        idPrefix="affiliate"
        label={t('affiliate.tabs.label')}
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            id: 'referrals',
            label: t('affiliate.tabs.referrals'),
            panel:
              referrals.length === 0 ? (
                <p className="empty-state">{t('affiliate.referrals.empty')}</p>
              ) : (
                <DataTable
                  caption={t('affiliate.referrals.caption')}
                  columns={[
                    { id: 'referral', label: t('affiliate.referrals.referral') },
                    { id: 'number', label: t('affiliate.referrals.transaction') },
                    { id: 'amount', label: t('affiliate.referrals.amount') },
                    { id: 'date', label: t('affiliate.referrals.date') },
                  ]}
                  rows={referrals.map((row) => ({
                    key: row.id,
                    cells: [
                      row.referral ?? '—',
                      row.transaction_number,
                      formatAmount(row.amount_usdt, locale),
                      <time key="date" dateTime={row.created_at}>
                        {formatDateTime(row.created_at, locale)}
                      </time>,
                    ],
                  }))}
                />
              ),
          },
          {
            id: 'withdrawals',
            label: t('affiliate.tabs.withdrawals'),
            panel:
              withdrawals.length === 0 ? (
                <p className="empty-state">{t('affiliate.withdrawals.empty')}</p>
              ) : (
                <DataTable
                  caption={t('affiliate.withdrawals.caption')}
                  columns={[
                    { id: 'id', label: t('affiliate.withdrawals.id') },
                    { id: 'amount', label: t('affiliate.withdrawals.amount') },
                    { id: 'date', label: t('affiliate.withdrawals.date') },
                    { id: 'status', label: t('affiliate.withdrawals.status') },
                  ]}
                  rows={withdrawals.map((row) => ({
                    key: row.id,
                    cells: [
                      <span key="id" className="mono">
                        {row.id}
                      </span>,
                      formatAmount(row.amount_usdt, locale),
                      <time key="date" dateTime={row.created_at}>
                        {formatDateTime(row.created_at, locale)}
                      </time>,
                      <span key="status">
                        <span className={`status status--withdrawal-${row.status}`}>
                          {t(`affiliate.withdrawals.statuses.${row.status}`)}
                        </span>
                        {row.status === 'rejected' && row.reject_reason ? (
                          <span className="field__hint">
                            {' '}
                            {t('affiliate.withdrawals.reason', { reason: row.reject_reason })}
                          </span>
                        ) : null}
                      </span>,
                    ],
                  }))}
                />
              ),
          },
        ]}
      />

      <section className="card" aria-labelledby="withdraw-title">
        <h2 id="withdraw-title">{t('affiliate.withdraw.title')}</h2>
        <WithdrawForm available={stats.available_usdt} onRequested={() => setTab('withdrawals')} />
      </section>
    </main>
  );
}

/** The referral link, selectable, with Copy. */
function ReferralLink({ name }: { name: string }) {
  const { t } = useTranslation('account');
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const origin = browserEnv().PUBLIC_SITE_URL || window.location.origin;
  const link = referralLink(origin, name);

  const copy = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    const fallback = () => input.current?.select();
    if (!clipboard) {
      fallback();
      return;
    }
    clipboard.writeText(link).then(() => setCopied(true), fallback);
  };

  return (
    <div className="field referral-link__field">
      <label htmlFor="referral-link">{t('affiliate.link.label')}</label>
      <div className="referral-link__row">
        <input
          ref={input}
          id="referral-link"
          type="text"
          readOnly
          value={link}
          aria-describedby="referral-link-hint"
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button button--small" onClick={copy}>
          {copied ? t('affiliate.link.copied') : t('affiliate.link.copy')}
        </button>
      </div>
      <p id="referral-link-hint" className="field__hint">
        {t('affiliate.link.hint')}
      </p>
      <p className="visually-hidden" role="status">
        {copied ? t('affiliate.link.copied') : ''}
      </p>
    </div>
  );
}
