-- Seeds the user levels (tiers) with their buy/sell margins; `new` is the default level (spec sections 4, 9).
-- Idempotent: ON CONFLICT DO NOTHING skips any level whose status or min_orders already exists, so staff edits are kept.

INSERT INTO public.user_levels (status, buy_margin, sell_margin, min_orders) VALUES
  ('new',      0.030000, 0.025000,   0),
  ('bronze',   0.025000, 0.020000,   5),
  ('silver',   0.020000, 0.015000,  20),
  ('gold',     0.015000, 0.010000,  50),
  ('platinum', 0.010000, 0.007000, 150)
ON CONFLICT DO NOTHING;
