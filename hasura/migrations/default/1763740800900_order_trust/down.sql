ALTER TABLE public.portal_users DROP COLUMN anti_phishing_phrase;

CREATE OR REPLACE VIEW public.transaction_status_counts AS
SELECT s.status,
       s.position,
       (SELECT count(*) FROM public.transactions t WHERE t.status = s.status)::integer AS total
  FROM (VALUES ('waiting_for_operator', 1), ('waiting_for_payment', 2), ('paid', 3),
               ('completed', 4), ('canceled', 5)) AS s (status, position);

DROP FUNCTION public.transaction_queue_position(public.transactions);

-- The functions as migration 1763740800200 made them.
CREATE OR REPLACE FUNCTION public.transaction_transition_allowed(from_status text, to_status text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (from_status, to_status) IN (
    ('waiting_for_operator', 'waiting_for_payment'),
    ('waiting_for_operator', 'canceled'),
    ('waiting_for_payment', 'paid'),
    ('waiting_for_payment', 'canceled'),
    ('paid', 'completed'))
$$;

CREATE OR REPLACE FUNCTION public.transactions_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'waiting_for_operator' THEN
      RAISE EXCEPTION 'a new transaction must start in waiting_for_operator, not %', NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END IF;

  -- What the order is about never changes once it exists.
  IF (NEW.user_id, NEW.send_currency, NEW.receive_currency, NEW.send_amount, NEW.receive_amount,
      NEW.rate, NEW.email, NEW.wallet_address, NEW.iban, NEW.created_at)
     IS DISTINCT FROM
     (OLD.user_id, OLD.send_currency, OLD.receive_currency, OLD.send_amount, OLD.receive_amount,
      OLD.rate, OLD.email, OLD.wallet_address, OLD.iban, OLD.created_at) THEN
    RAISE EXCEPTION 'the terms of transaction % cannot be changed', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;

  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF NOT public.transaction_transition_allowed(OLD.status, NEW.status) THEN
      RAISE EXCEPTION 'transaction % cannot move from % to %', OLD.number, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    CASE NEW.status
      WHEN 'waiting_for_payment' THEN NEW.requisites_at := now();
      WHEN 'paid' THEN NEW.paid_at := now();
      WHEN 'completed' THEN NEW.completed_at := now();
      WHEN 'canceled' THEN NEW.canceled_at := now();
      ELSE NULL;
    END CASE;
  ELSIF OLD.status IN ('completed', 'canceled') THEN
    RAISE EXCEPTION 'transaction % is % and cannot be changed', OLD.number, OLD.status
      USING ERRCODE = 'check_violation';
  ELSIF OLD.status <> 'waiting_for_operator'
        AND (NEW.deposit_address, NEW.deposit_memo, NEW.bank_account_id, NEW.payment_reference)
            IS DISTINCT FROM (OLD.deposit_address, OLD.deposit_memo, OLD.bank_account_id, OLD.payment_reference) THEN
    -- Once the user has been shown where to pay, that must not change under them.
    RAISE EXCEPTION 'the requisites of transaction % were already delivered', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION public.transactions_record_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO public.transaction_status_history (transaction_id, from_status, to_status, changed_by, note)
    VALUES (NEW.id,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END,
            NEW.status,
            (SELECT id FROM public.portal_users WHERE id = public.hasura_session_user_id()),
            CASE WHEN NEW.status = 'canceled' THEN NEW.cancel_reason END);
  END IF;
  RETURN NULL;
END;
$$;

DROP INDEX public.transactions_pay_by_idx;
DROP INDEX public.transactions_requisites_due_idx;
DROP INDEX public.transactions_deposit_address_idx;

ALTER TABLE public.transactions
  DROP CONSTRAINT transactions_reason_when_user_action,
  DROP CONSTRAINT transactions_category_when_on_hold,
  DROP CONSTRAINT transactions_refund_tx_when_refunded,
  DROP CONSTRAINT transactions_requote_complete,
  DROP CONSTRAINT transactions_settlement_complete,
  DROP COLUMN requisites_due_at,
  DROP COLUMN requisites_late_at,
  DROP COLUMN pay_by,
  DROP COLUMN quoted_receive_amount,
  DROP COLUMN quoted_rate,
  DROP COLUMN requoted_at,
  DROP COLUMN payout_memo,
  DROP COLUMN refund_address,
  DROP COLUMN refund_memo,
  DROP COLUMN received_amount,
  DROP COLUMN action_reason,
  DROP COLUMN hold_category,
  DROP COLUMN settled_receive_amount,
  DROP COLUMN settled_rate,
  DROP COLUMN refund_tx_id,
  DROP COLUMN expired_at,
  DROP COLUMN refunded_at;

-- Fails while an order is in a side state: roll those back by hand first.
ALTER TABLE public.transactions DROP CONSTRAINT transactions_status_check;
ALTER TABLE public.transactions ADD CONSTRAINT transactions_status_check CHECK (status IN (
  'waiting_for_operator', 'waiting_for_payment', 'paid', 'completed', 'canceled'));

DROP FUNCTION public.currency_payment_window(text);
ALTER TABLE public.currencies DROP COLUMN payment_window_minutes, DROP COLUMN reserve;
