-- What can be exchanged: currencies (an asset on a network for crypto), the directions
-- between them, market rates, and per-user custom rates.

CREATE TABLE public.currencies (
  -- Stable id used in URLs and foreign keys, e.g. BTC, USDTTRC20, EUR, CASHUSD.
  code       text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{2,16}$'),
  -- Ticker shown to people (USDT for every USDT network).
  symbol     text NOT NULL CHECK (symbol ~ '^[A-Z0-9]{2,10}$'),
  name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  kind       text NOT NULL CHECK (kind IN ('crypto', 'fiat', 'cash')),
  -- Crypto only: the network a payout goes over (TRC20, ERC20, BTC, ...).
  network    text CHECK (network ~ '^[A-Z0-9]{2,16}$'),
  -- Decimal places amounts in this currency are rounded to.
  precision  smallint NOT NULL CHECK (precision BETWEEN 0 AND 18),
  min_amount numeric NOT NULL CHECK (min_amount > 0),
  max_amount numeric NOT NULL,
  -- Networks whose deposits need a memo or destination tag (XRP, XLM, TON, ...).
  memo_required boolean NOT NULL DEFAULT false,
  enabled    boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 1000,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT currencies_amount_range CHECK (max_amount > min_amount),
  CONSTRAINT currencies_network_iff_crypto CHECK ((kind = 'crypto') = (network IS NOT NULL))
);
CREATE INDEX currencies_enabled_sort_idx ON public.currencies (enabled, sort_order, code);
CREATE TRIGGER currencies_set_updated_at BEFORE UPDATE ON public.currencies
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE public.exchange_directions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  from_currency text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE,
  to_currency   text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE,
  -- Readable route parameter for /create-transaction/{pear}, e.g. btc-to-xmr.
  slug          text GENERATED ALWAYS AS (lower(from_currency) || '-to-' || lower(to_currency)) STORED,
  enabled       boolean NOT NULL DEFAULT true,
  -- Optional daily window (spec section 9: 9:00 to 23:00 UTC+3, orders after the cut-off
  -- 22:30 are processed the next day). Times are local to the offset below.
  window_start  time,
  window_end    time,
  window_cutoff time,
  window_utc_offset_minutes smallint CHECK (window_utc_offset_minutes BETWEEN -720 AND 840),
  sort_order    integer NOT NULL DEFAULT 1000,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT exchange_directions_distinct_currencies CHECK (from_currency <> to_currency),
  CONSTRAINT exchange_directions_from_to_key UNIQUE (from_currency, to_currency),
  CONSTRAINT exchange_directions_slug_key UNIQUE (slug),
  CONSTRAINT exchange_directions_window_complete CHECK (
    (window_start IS NULL AND window_end IS NULL AND window_cutoff IS NULL AND window_utc_offset_minutes IS NULL)
    OR (window_start IS NOT NULL AND window_end IS NOT NULL AND window_utc_offset_minutes IS NOT NULL
        AND window_start < window_end
        AND (window_cutoff IS NULL OR window_cutoff BETWEEN window_start AND window_end))
  )
);
CREATE INDEX exchange_directions_to_currency_idx ON public.exchange_directions (to_currency);
CREATE TRIGGER exchange_directions_set_updated_at BEFORE UPDATE ON public.exchange_directions
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Latest market price of one unit of a currency in USDT, per provider. Quotes pivot
-- through USDT and refuse prices older than a configured age (fetched_at).
CREATE TABLE public.rates (
  currency_code text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE ON DELETE CASCADE,
  provider      text NOT NULL CHECK (provider ~ '^[a-z0-9_-]{2,32}$'),
  price_usdt    numeric NOT NULL CHECK (price_usdt > 0),
  fetched_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (currency_code, provider)
);
CREATE INDEX rates_fetched_at_idx ON public.rates (fetched_at);

-- Per-user rates that replace the level margins for one currency (staff set them).
-- Both are prices in USDT per unit: sell_rate when the user sells the currency to the
-- service, buy_rate when the user buys it.
CREATE TABLE public.user_custom_carrency (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id       uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  currency_code text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE ON DELETE CASCADE,
  sell_rate     numeric CHECK (sell_rate > 0),
  buy_rate      numeric CHECK (buy_rate > 0),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT user_custom_carrency_user_currency_key UNIQUE (user_id, currency_code),
  CONSTRAINT user_custom_carrency_some_rate CHECK (sell_rate IS NOT NULL OR buy_rate IS NOT NULL)
);
CREATE TRIGGER user_custom_carrency_set_updated_at BEFORE UPDATE ON public.user_custom_carrency
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
