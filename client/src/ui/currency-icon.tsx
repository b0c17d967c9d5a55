import { useCallback, useState, type CSSProperties } from 'react';

import { currencyIcon, type CurrencyLike } from '../currency-icons/currency-icon.ts';

/*
 * A currency's icon beside its ticker, decorative (alt="", hidden from assistive technology: the
 * ticker is the text): the set's logo as a lazily loaded static SVG, a network badge for tokens,
 * and a neutral circle with a sign or the ticker's letters where there is no logo, or where the
 * logo does not load, so a broken image never shows. Colours come from CSS custom properties
 * (--currency-icon-bg, --currency-icon-fg, --currency-icon-ring) each app may set.
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
  const badgeSize = Math.round(size * 0.5);
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
        <span
          className="currency-icon__fallback"
          style={{
            ...frame(size),
            borderRadius: '50%',
            background: 'var(--currency-icon-bg, #e2e8f0)',
            color: 'var(--currency-icon-fg, #334155)',
            fontSize: Math.round(size * (icon.text.length > 1 ? 0.4 : 0.55)),
            fontWeight: 600,
            lineHeight: 1,
            letterSpacing: '-0.02em',
          }}
        >
          {icon.text}
        </span>
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
