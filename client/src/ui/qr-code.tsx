import { useEffect, useState } from 'react';

/**
 * The QR code of a deposit address or a payment URI (@app/shared/exchange paymentUri), drawn in
 * the browser (uqr, loaded only when needed). `data-qr-value` holds what it encodes, so a test
 * can read it without decoding the image.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import('uqr').then(({ renderSVG }) => {
      if (current) setSvg(renderSVG(value, { border: 2 }));
    });
    return () => {
      current = false;
    };
  }, [value]);
  return (
    <div
      className="qr"
      role="img"
      aria-label={label}
      data-qr-value={value}
      // The SVG is generated locally from the address; it carries no markup of anyone else's.
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
