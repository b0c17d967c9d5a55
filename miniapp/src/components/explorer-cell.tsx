import { Cell } from '@telegram-apps/telegram-ui';
import { ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { openExternalLink } from '../telegram/sdk.ts';

import '../order/order.css';

/**
 * The block explorer's page of an address or a tx id shown just above (decision 042). Inside
 * Telegram it opens in Telegram's browser (a plain new tab is not what a mini-app gets); the
 * link itself still names the page, and outside Telegram opens a new tab that gets neither this
 * window nor its address.
 */
export function ExplorerCell({ href, label }: { href: string | undefined; label: string }) {
  const { t } = useTranslation('exchange');
  if (!href) return null;
  return (
    <Cell
      Component="a"
      className="explorer-cell"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('transaction.explorerLabel', { label })}
      before={<ExternalLink aria-hidden="true" size={18} />}
      onClick={(event) => {
        event.preventDefault();
        openExternalLink(href);
      }}
    >
      {t('transaction.explorer')}
    </Cell>
  );
}
