import { useCallback, useState, type CSSProperties } from 'react';

import { currencyIcon, type CurrencyLike } from '../currency-icons/currency-icon.ts';

/*
 * A currency's icon beside its ticker, decorative (alt="", hidden from assistive technology: the
 * ticker is the text): the set's logo as a lazily loaded static SVG, a network badge for tokens,
 * and a neutral circle with a sign or the ticker's letters where there is no logo, or where the
 * logo does not load, so a broken image never shows. The badge's ring takes the page's background
 * from the --currency-icon-ring custom property each app may set.
 */

interface CurrencyIconProps {
  currency: CurrencyLike;
  /** Width and height in px. */
  size?: number;
  className?: string;
}

const frame = (size: number): CSSProperties => ({
  position: 'relative',
  display: 'inline-flex',
  flex: 'none',
  alignItems: 'center',
  justifyContent: 'center',
  width: size,
  height: size,
  verticalAlign: 'middle',
});

/**
 * The fallback as an image too (a data: URL, so it cannot fail to load): a neutral grey disc with
 * the sign or letters, readable on light and dark pages, and no text in the page's own text (a
 * cell reading "100 USD" still reads so).
 */
function fallbackImage(text: string): string {
  const fontSize = text.length > 1 ? 13 : 17;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">` +
    `<circle cx="16" cy="16" r="16" fill="#8b95a5"/>` +
    `<text x="16" y="16" dy="0.35em" text-anchor="middle" fill="#fff" ` +
    `font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-weight="600" ` +
    `font-size="${fontSize}">${text.replace(/[<>&]/g, '')}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** An <img> that reports a failure even when it failed before hydration attached onError. */
function useFailed(src: string | null) {
  const [failed, setFailed] = useState<string | null>(null);
  const check = useCallback(
    (image: HTMLImageElement | null) => {
      if (image && image.complete && image.naturalWidth === 0 && src) setFailed(src);
    },
    [src],
  );
  return { failed: src !== null && failed === src, fail: () => setFailed(src), check };
}

export function CurrencyIcon({ currency, size = 24, className }: CurrencyIconProps) {
  const icon = currencyIcon(currency);
  const logo = useFailed(icon.src);
  const badge = useFailed(icon.badge);
  const showLogo = icon.src !== null && !logo.failed;
  const badgeSize = Math.round(size * 0.55);
  return (
    <span
      aria-hidden="true"
      className={className ? `currency-icon ${className}` : 'currency-icon'}
      data-icon={showLogo ? 'logo' : 'fallback'}
      style={frame(size)}
    >
      {showLogo ? (
        <img
          ref={logo.check}
          src={icon.src ?? undefined}
          width={size}
          height={size}
          alt=""
          loading="lazy"
          decoding="async"
          onError={logo.fail}
        />
      ) : (
        <img
          className="currency-icon__fallback"
          src={fallbackImage(icon.text)}
          width={size}
          height={size}
          alt=""
        />
      )}
      {icon.badge && !badge.failed ? (
        <img
          ref={badge.check}
          className="currency-icon__badge"
          src={icon.badge}
          width={badgeSize}
          height={badgeSize}
          alt=""
          loading="lazy"
          decoding="async"
          onError={badge.fail}
          style={{
            position: 'absolute',
            right: -Math.round(size * 0.12),
            bottom: -Math.round(size * 0.12),
            borderRadius: '50%',
            background: 'var(--currency-icon-ring, #fff)',
            boxShadow: '0 0 0 1.5px var(--currency-icon-ring, #fff)',
          }}
        />
      ) : null}
    </span>
  );
}
