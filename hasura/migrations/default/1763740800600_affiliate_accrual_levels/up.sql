-- What completing an order does besides moving its status: the referrer earns a bonus in USDT
-- (spec sections 3, 9), and the user climbs the levels by completed orders (user_levels.min_orders).
-- Both happen in the completing transaction, whoever completes it. Also the affiliate read
-- models the user pages show (statistics, referral history).

-- The order's value in USDT at market prices when it was created: the base of the referral
-- bonus and of the referral turnover. NULL only for orders created before this column.
ALTER TABLE public.transactions
  ADD COLUMN amount_usdt numeric CONSTRAINT transactions_amount_usdt_positive CHECK (amount_usdt > 0);

CREATE FUNCTION public.transactions_amount_usdt_fixed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.amount_usdt IS NOT NULL AND NEW.amount_usdt IS DISTINCT FROM OLD.amount_usdt THEN
    RAISE EXCEPTION 'the USDT value of transaction % cannot be changed', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER transactions_amount_usdt_fixed BEFORE UPDATE OF amount_usdt ON public.transactions
  FOR EACH ROW EXECUTE FUNCTION public.transactions_amount_usdt_fixed();

-- The program's terms, one row, edited by administrators: the fraction of a referred order's
-- USDT value credited to the referrer. Each bonus records the rate it was accrued at.
CREATE TABLE public.affiliate_settings (
  id           boolean PRIMARY KEY DEFAULT true CONSTRAINT affiliate_settings_single_row CHECK (id),
  accrual_rate numeric(8, 6) NOT NULL CHECK (accrual_rate > 0 AND accrual_rate < 1),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER affiliate_settings_set_updated_at BEFORE UPDATE ON public.affiliate_settings
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
-- 0.5 % of the order's value.
INSERT INTO public.affiliate_settings (accrual_rate) VALUES (0.005);

CREATE FUNCTION public.transactions_on_completed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  referrer uuid;
  rate numeric;
  bonus numeric;
  done integer;
  current_min integer;
  next_level text;
BEGIN
  -- The user's row is locked first: two of their orders completing at once count each other.
  SELECT u.referrer_id, l.min_orders INTO referrer, current_min
    FROM public.portal_users u
    LEFT JOIN public.user_levels l ON l.status = u.status
   WHERE u.id = NEW.user_id
     FOR UPDATE OF u;

  IF referrer IS NOT NULL AND NEW.amount_usdt IS NOT NULL THEN
    SELECT accrual_rate INTO rate FROM public.affiliate_settings;
    -- Six decimals, rounded down: the service never credits more than the rate gives.
    bonus := trunc(NEW.amount_usdt * rate, 6);
    IF bonus > 0 THEN
      INSERT INTO public.referral_bonuses
        (referrer_id, referral_id, transaction_id, order_amount_usdt, accrual_rate, amount_usdt)
      VALUES (referrer, NEW.user_id, NEW.id, NEW.amount_usdt, rate, bonus)
      ON CONFLICT (transaction_id) DO NOTHING;
    END IF;
  END IF;

  -- Levels only move up, and only from a status that is a level: a status staff set that
  -- names no level is theirs to change.
  IF current_min IS NOT NULL THEN
    SELECT count(*) INTO done FROM public.transactions
     WHERE user_id = NEW.user_id AND status = 'completed';
    SELECT status INTO next_level FROM public.user_levels
     WHERE min_orders <= done AND min_orders > current_min
     ORDER BY min_orders DESC LIMIT 1;
    IF next_level IS NOT NULL THEN
      UPDATE public.portal_users SET status = next_level WHERE id = NEW.user_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER transactions_on_completed AFTER UPDATE OF status ON public.transactions
  FOR EACH ROW WHEN (NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION public.transactions_on_completed();

-- A user's affiliate figures (spec section 3): accumulated bonuses, what is left to withdraw,
-- earnings per referral transaction, the referral turnover and the number of referrals.
CREATE VIEW public.affiliate_statistics AS
SELECT u.id AS user_id,
       u.referral_name,
       COALESCE(b.accumulated, 0) AS accumulated_usdt,
       COALESCE(w.withdrawn, 0) AS withdrawn_usdt,
       COALESCE(b.accumulated, 0) - COALESCE(w.withdrawn, 0) AS available_usdt,
       COALESCE(b.bonuses, 0)::integer AS referral_transactions,
       COALESCE(b.turnover, 0) AS referral_turnover_usdt,
       CASE WHEN b.bonuses > 0 THEN trunc(b.accumulated / b.bonuses, 6) ELSE 0 END
         AS earnings_per_transaction_usdt,
       (SELECT count(*) FROM public.portal_users r WHERE r.referrer_id = u.id)::integer AS total_referrals
  FROM public.portal_users u
  LEFT JOIN LATERAL (
    SELECT sum(amount_usdt) AS accumulated, count(*) AS bonuses, sum(order_amount_usdt) AS turnover
      FROM public.referral_bonuses WHERE referrer_id = u.id
  ) b ON true
  LEFT JOIN LATERAL (
    SELECT sum(amount_usdt) AS withdrawn
      FROM public.bonus_withdrawals WHERE user_id = u.id AND status <> 'rejected'
  ) w ON true;

-- Shows who a referral is without giving their address away: "al***@example.com".
CREATE FUNCTION public.mask_email(email text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN email IS NULL THEN NULL
              ELSE left(split_part(email, '@', 1), 2) || '***@' || split_part(email, '@', 2) END
$$;

-- One row per bonus (spec section 3: referral, transaction ID, amount in USDT, date).
CREATE VIEW public.referral_history AS
SELECT b.id,
       b.referrer_id,
       COALESCE(public.mask_email(r.email), '@' || r.telegram_username, r.referral_name) AS referral,
       b.transaction_id,
       t.number AS transaction_number,
       b.order_amount_usdt,
       b.accrual_rate,
       b.amount_usdt,
       b.created_at
  FROM public.referral_bonuses b
  JOIN public.portal_users r ON r.id = b.referral_id
  JOIN public.transactions t ON t.id = b.transaction_id;
