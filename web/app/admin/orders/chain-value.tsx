import { ExplorerLink } from '#app/exchange/explorer-link.tsx';

/**
 * An address or a tx id in the order detail, with its block explorer's page where the network
 * has one (decision 042), so the operator checks a payout or a deposit without copying it into
 * another site. Nothing when there is no value.
 */
export function ChainValue({
  value,
  href,
  label,
}: {
  value: string | null | undefined;
  href: string | undefined;
  /** The row's label, for the link's accessible name. */
  label: string;
}) {
  if (!value) return null;
  return (
    <span className="staff-orders__chain">
      <span className="mono">{value}</span>
      {href ? <ExplorerLink href={href} label={label} /> : null}
    </span>
  );
}
