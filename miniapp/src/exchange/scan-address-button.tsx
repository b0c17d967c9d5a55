import { ScanLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { addressFromWalletQr } from '@app/shared/exchange';

import { haptic, hasQrScanner, scanQrInTelegram } from '../telegram/sdk.ts';

/**
 * The payout address field's scan button: Telegram's own QR scanner reads the wallet's receive
 * code, and the address in it (a bare address or a payment URI) fills the field. A code with no
 * address says so under the field. Nothing is shown on clients without a scanner (Desktop, Web).
 */
export function ScanAddressButton(props: {
  onAddress: (address: string) => void;
  onNoAddress: () => void;
}) {
  const { t } = useTranslation('miniapp');
  if (!hasQrScanner()) return null;
  const scan = async () => {
    const result = await scanQrInTelegram(t('exchange.scanTitle'));
    if (result.kind !== 'scanned') return;
    const address = addressFromWalletQr(result.text);
    if (address === undefined) {
      haptic.error();
      props.onNoAddress();
      return;
    }
    haptic.success();
    props.onAddress(address);
  };
  return (
    <button
      type="button"
      className="scan-button"
      aria-label={t('exchange.scanQr')}
      title={t('exchange.scanQr')}
      onClick={() => void scan()}
    >
      <ScanLine aria-hidden="true" size={22} />
    </button>
  );
}
