-- Seeds the networks the watchers can follow (issue 25) and, when a network is first seeded,
-- the depth each of its currencies needs and the tokens' contracts. Idempotent: a network that
-- exists is left as staff set it (the automation switch), and so are its currencies' figures.
-- A network is watched only when the watcher process is given an endpoint for it. Contracts are the issuers' own (Tether, Circle); a
-- token without one is not watched until staff set it.

WITH networks (network, family, native_currency) AS (
  VALUES
    ('BTC', 'esplora', 'BTC'),
    ('LTC', 'esplora', 'LTC'),
    ('ERC20', 'evm', 'ETH'),
    ('BEP20', 'evm', 'BNB'),
    ('TRC20', 'tron', 'TRX')
),
inserted AS (
  INSERT INTO public.chain_networks (network, family, native_currency)
  SELECT n.network, n.family, c.code
    FROM networks n LEFT JOIN public.currencies c ON c.code = n.native_currency
  ON CONFLICT (network) DO NOTHING
  RETURNING network
),
depths (code, confirmations, contract, decimals) AS (
  VALUES
    ('BTC',       2,  NULL, NULL),
    ('LTC',       6,  NULL, NULL),
    ('ETH',       12, NULL, NULL),
    ('BNB',       15, NULL, NULL),
    ('TRX',       19, NULL, NULL),
    ('USDTERC20', 12, '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6),
    ('USDCERC20', 12, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6),
    ('USDTTRC20', 19, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 6)
)
UPDATE public.currencies AS c
   SET confirmations_required = d.confirmations,
       token_contract = d.contract,
       token_decimals = d.decimals::smallint
  FROM depths d
 WHERE c.code = d.code AND c.network IN (SELECT network FROM inserted);
