import { Button, Section } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';

import { buildStartParam, botChatLink } from '@app/shared/telegram';
import { percentOf } from '@app/client/affiliate/referral.ts';
import {
  AffiliateSettingsDocument,
  AffiliateStatisticsDocument,
} from '@app/client/graphql/generated/user.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';

import { CopyCell } from '../components/copy-cell.tsx';
import { SectionHeading } from '../components/section-heading.tsx';
import { browserEnv } from '../env.ts';
import { shareInTelegram } from '../telegram/sdk.ts';

/*
 * The affiliate program's invitation inside Telegram (issue 22): the person's referral link as
 * a link to the bot (`/start ref_<name>`: the bot opens the app with it, and the sign-in records
 * the referral), which Telegram's share sheet sends to a chat; the link is also copyable. The
 * portal's affiliate page keeps the figures and withdrawals.
 */
export function InviteSection() {
  const { t } = useTranslation('account');
  const statistics = useSubscription(AffiliateStatisticsDocument, {}, true);
  const settings = useSubscription(AffiliateSettingsDocument, {}, true);
  if (statistics.status !== 'live') return null;
  const name = statistics.data.affiliate_statistics[0]?.referral_name;
  if (!name) return null;
  const rate =
    settings.status === 'live' ? settings.data.affiliate_settings[0]?.accrual_rate : undefined;
  const link = botChatLink(
    browserEnv().PUBLIC_TELEGRAM_BOT_USERNAME,
    buildStartParam({ referralCode: name }),
  );
  return (
    <>
      <Section
        header={<SectionHeading>{t('miniapp:settings.inviteTitle')}</SectionHeading>}
        footer={
          <Section.Footer>
            {rate === undefined || rate === null
              ? t('affiliate.link.hint')
              : t('affiliate.intro', { rate: percentOf(String(rate)) })}
          </Section.Footer>
        }
      >
        <CopyCell label={t('affiliate.link.label')} value={link} />
      </Section>
      <div className="state-actions">
        <Button
          mode="bezeled"
          size="l"
          stretched
          onClick={() => shareInTelegram(link, t('miniapp:settings.inviteText'))}
        >
          {t('miniapp:settings.share')}
        </Button>
      </div>
    </>
  );
}
