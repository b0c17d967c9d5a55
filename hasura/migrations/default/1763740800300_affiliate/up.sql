-- Affiliate ledger: bonuses accrued in USDT on referred users' completed orders, and the
-- withdrawals paid out of them (spec sections 3, 5 and 9: minimum withdrawal 100 USDT).

CREATE TABLE public.referral_bonuses (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  referrer_id    uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE RESTRICT,
  referral_id    uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE RESTRICT,
  -- One bonus per completed order.
  transaction_id uuid NOT NULL UNIQUE REFERENCES public.transactions (id) ON DELETE RESTRICT,
  -- The referred order's value in USDT and the accrual fraction applied to it.
  order_amount_usdt numeric NOT NULL CHECK (order_amount_usdt > 0),
  accrual_rate   numeric(8, 6) NOT NULL CHECK (accrual_rate > 0 AND accrual_rate < 1),
  amount_usdt    numeric NOT NULL CHECK (amount_usdt > 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT referral_bonuses_not_self CHECK (referrer_id <> referral_id)
);
CREATE INDEX referral_bonuses_referrer_created_idx ON public.referral_bonuses (referrer_id, created_at DESC);

CREATE TABLE public.bonus_withdrawals (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE RESTRICT,
  amount_usdt    numeric NOT NULL CONSTRAINT bonus_withdrawals_minimum CHECK (amount_usdt >= 100),
  -- USDT payout address (TRC20, spec section 9).
  wallet_address text NOT NULL CHECK (char_length(wallet_address) BETWEEN 10 AND 128),
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'rejected')),
  payout_tx_id   text CHECK (char_length(btrim(payout_tx_id)) BETWEEN 1 AND 256),
  reject_reason  text CHECK (char_length(reject_reason) <= 500),
  processed_by   uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  processed_at   timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT bonus_withdrawals_paid_has_tx CHECK (status <> 'paid' OR payout_tx_id IS NOT NULL)
);
CREATE INDEX bonus_withdrawals_user_created_idx ON public.bonus_withdrawals (user_id, created_at DESC);
CREATE INDEX bonus_withdrawals_status_idx ON public.bonus_withdrawals (status, created_at);

-- USDT a user may still withdraw: accrued bonuses less withdrawals not rejected.
CREATE FUNCTION public.affiliate_available_usdt(for_user uuid) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT sum(amount_usdt) FROM public.referral_bonuses WHERE referrer_id = for_user), 0)
       - COALESCE((SELECT sum(amount_usdt) FROM public.bonus_withdrawals
                   WHERE user_id = for_user AND status <> 'rejected'), 0)
$$;

-- A withdrawal never exceeds the balance, even when many arrive at once: the user's row
-- lock serialises them, so the balance each one sees includes the ones before it.
CREATE FUNCTION public.bonus_withdrawals_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'pending' THEN
      RAISE EXCEPTION 'a new withdrawal must be pending' USING ERRCODE = 'check_violation';
    END IF;
    PERFORM 1 FROM public.portal_users WHERE id = NEW.user_id FOR UPDATE;
    IF NEW.amount_usdt > public.affiliate_available_usdt(NEW.user_id) THEN
      RAISE EXCEPTION 'withdrawal of % USDT exceeds the available bonus balance', NEW.amount_usdt
        USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END IF;

  IF (NEW.user_id, NEW.amount_usdt, NEW.wallet_address, NEW.created_at)
     IS DISTINCT FROM (OLD.user_id, OLD.amount_usdt, OLD.wallet_address, OLD.created_at) THEN
    RAISE EXCEPTION 'the terms of a withdrawal cannot be changed' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF OLD.status <> 'pending' THEN
      RAISE EXCEPTION 'withdrawal is already %', OLD.status USING ERRCODE = 'check_violation';
    END IF;
    NEW.processed_at := now();
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER bonus_withdrawals_guard BEFORE INSERT OR UPDATE ON public.bonus_withdrawals
  FOR EACH ROW EXECUTE FUNCTION public.bonus_withdrawals_guard();
