import { useTranslation } from 'react-i18next';

import { ExternalLinkIcon } from '#app/components/icons.ts';

/**
 * A block explorer's page of an address or a transaction (decision 042), in a new tab that gets
 * neither this page's window nor its address (the order's URL is private to its owner).
 */
export function ExplorerLink({
  href,
  label,
  className = 'button button--small',
}: {
  href: string;
  /** What the link shows, named in its accessible name ("Deposit address in the explorer"). */
  label: string;
  className?: string;
}) {
  const { t } = useTranslation('exchange');
  return (
    <a
      className={className}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('transaction.explorerLabel', { label })}
    >
      <ExternalLinkIcon aria-hidden="true" size={16} />
      {t('transaction.explorer')}
    </a>
  );
}
