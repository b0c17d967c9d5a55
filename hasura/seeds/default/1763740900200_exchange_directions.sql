-- Seeds the exchange directions: all pairs among the popular crypto, popular crypto <-> EUR/UAH/cash, and
-- the long tail via BTC and USDTTRC20. Idempotent: ON CONFLICT DO NOTHING keeps existing (staff-edited) pairs.
-- Directions touching UAH or cash get the daily window of spec section 9 (09:00-23:00 UTC+3, cut-off 22:30).

WITH
popular (code) AS (VALUES
  ('BTC'), ('ETH'), ('XMR'), ('USDTTRC20'), ('USDTERC20'), ('LTC'),
  ('TRX'), ('SOL'), ('TON'), ('BNB'), ('USDCERC20'), ('DOGE')
),
-- Fiat and cash every popular crypto is bought with and sold for.
popular_fiat (code) AS (VALUES ('EUR'), ('UAH'), ('CASHUSD'), ('CASHEUR')),
-- Other crypto, exchanged to and from the two hubs below.
other_crypto (code) AS (VALUES
  ('USDTBEP20'), ('USDTSOL'), ('USDTTON'), ('USDCTRC20'), ('USDCSOL'), ('USDCBEP20'), ('XRP'), ('BCH'),
  ('ADA'), ('XLM'), ('DOT'), ('AVAX'), ('POL'), ('DAI'), ('ATOM'), ('ETC'), ('DASH'), ('ZEC'), ('LINK'),
  ('UNI'), ('SHIB'), ('TUSD'), ('NEAR'), ('ALGO'), ('XTZ'), ('EOS'), ('KAS'), ('APT'), ('ARB'), ('OP'),
  ('SUI'), ('HBAR'), ('ETHARBITRUM'), ('USDTARBITRUM'), ('USDCPOLYGON')
),
hub (code) AS (VALUES ('BTC'), ('USDTTRC20')),
-- Remaining fiat and cash, reachable through the hubs.
other_fiat (code) AS (VALUES ('USD'), ('GBP'), ('PLN'), ('CZK'), ('CHF'), ('CASHUAH'), ('CASHPLN')),
-- Fiat to fiat transfers between the EU and Ukraine.
fiat_pair (from_code, to_code) AS (VALUES
  ('EUR', 'UAH'), ('UAH', 'EUR'), ('USD', 'UAH'), ('UAH', 'USD'), ('PLN', 'UAH'), ('UAH', 'PLN')
),
-- Footer pairs (spec section 2) are listed first.
featured (from_code, to_code, rank) AS (VALUES
  ('BTC', 'XMR', 1), ('BTC', 'USDTTRC20', 2), ('ETH', 'BTC', 3), ('ETH', 'XMR', 4), ('BNB', 'ETH', 5)
),
pairs (from_code, to_code) AS (
            SELECT a.code, b.code FROM popular a CROSS JOIN popular b WHERE a.code <> b.code
  UNION ALL SELECT p.code, f.code FROM popular p CROSS JOIN popular_fiat f
  UNION ALL SELECT f.code, p.code FROM popular_fiat f CROSS JOIN popular p
  UNION ALL SELECT o.code, h.code FROM other_crypto o CROSS JOIN hub h
  UNION ALL SELECT h.code, o.code FROM hub h CROSS JOIN other_crypto o
  UNION ALL SELECT h.code, f.code FROM hub h CROSS JOIN other_fiat f
  UNION ALL SELECT f.code, h.code FROM other_fiat f CROSS JOIN hub h
  UNION ALL SELECT from_code, to_code FROM fiat_pair
  UNION ALL SELECT from_code, to_code FROM featured
),
directions AS (
  SELECT DISTINCT ON (p.from_code, p.to_code)
         p.from_code, p.to_code,
         ('UAH' IN (p.from_code, p.to_code) OR 'cash' IN (cf.kind, ct.kind)) AS windowed,
         COALESCE(ft.rank, cf.sort_order * 1000 + ct.sort_order) AS sort_order
  FROM pairs p
  JOIN public.currencies cf ON cf.code = p.from_code
  JOIN public.currencies ct ON ct.code = p.to_code
  LEFT JOIN featured ft ON ft.from_code = p.from_code AND ft.to_code = p.to_code
  ORDER BY p.from_code, p.to_code
)
INSERT INTO public.exchange_directions
  (from_currency, to_currency, enabled, window_start, window_end, window_cutoff, window_utc_offset_minutes, sort_order)
SELECT from_code, to_code, true,
       CASE WHEN windowed THEN time '09:00' END,
       CASE WHEN windowed THEN time '23:00' END,
       CASE WHEN windowed THEN time '22:30' END,
       CASE WHEN windowed THEN 180 END,
       sort_order
FROM directions
ORDER BY sort_order, from_code, to_code
ON CONFLICT DO NOTHING;
