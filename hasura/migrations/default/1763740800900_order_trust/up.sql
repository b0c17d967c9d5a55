-- Trust features (issue 10, docs/decisions/015-order-trust.md): locked quotes with deadlines,
-- the operator's promise made visible, side states that explain themselves (hold, a payment
-- that needs the user's choice, refunds, expiry), the anti-phishing phrase, what the rate feed
-- publishes, and checking whether an address or IBAN is really the service's.

-- How long a payment may take once the requisites are given, per send currency; NULL is the
-- kind's default (crypto 30 minutes, bank and cash 24 hours), see transaction_payment_window.
-- The reserve is what the service can pay out in the currency (the rate feed's <amount>);
-- NULL publishes the currency's max_amount.
ALTER TABLE public.currencies
  ADD COLUMN payment_window_minutes integer CHECK (payment_window_minutes BETWEEN 5 AND 10080),
  ADD COLUMN reserve numeric CHECK (reserve >= 0);

CREATE FUNCTION public.currency_payment_window(code text) RETURNS interval
LANGUAGE sql STABLE AS $$
  SELECT make_interval(mins => COALESCE(c.payment_window_minutes,
                                        CASE c.kind WHEN 'crypto' THEN 30 ELSE 1440 END))
    FROM public.currencies c WHERE c.code = currency_payment_window.code
$$;

-- The side states. The five of spec section 4 stay the backbone; the others are detours that
-- either rejoin it (on_hold and needs_user_action back to paid) or end in refunded or expired.
ALTER TABLE public.transactions DROP CONSTRAINT transactions_status_check;
ALTER TABLE public.transactions ADD CONSTRAINT transactions_status_check CHECK (status IN (
  'waiting_for_operator', 'waiting_for_payment', 'paid', 'completed', 'canceled',
  'on_hold', 'needs_user_action', 'refund_in_progress', 'refunded', 'expired'));

ALTER TABLE public.transactions
  -- The operator's promise: requisites within 10 minutes of creation, or of the opening of
  -- the direction's daily window when the order came in outside it (createExchange sets it).
  ADD COLUMN requisites_due_at timestamptz NOT NULL DEFAULT now() + interval '10 minutes',
  -- Set once by the deadlines job when the promise was broken: staff are told, the row is
  -- highlighted, and the user is told they may cancel at no cost.
  ADD COLUMN requisites_late_at timestamptz,
  -- The payment window starts when the requisites are given, never before, so the operator's
  -- delay never costs the user. Past it, unpaid, the order expires (the deadlines job).
  ADD COLUMN pay_by timestamptz,
  -- When the service re-quoted an order whose requisites it gave late, the locked figures the
  -- user was first shown (the order keeps the better of the two for the user).
  ADD COLUMN quoted_receive_amount numeric CHECK (quoted_receive_amount > 0),
  ADD COLUMN quoted_rate numeric CHECK (quoted_rate > 0),
  ADD COLUMN requoted_at timestamptz,
  -- Memo or destination tag of the user's payout address (XRP, XLM, TON, ...).
  ADD COLUMN payout_memo text CHECK (char_length(btrim(payout_memo)) BETWEEN 1 AND 64),
  -- Where a refund goes: an address on the send currency's network (with its memo), or an
  -- IBAN when the user paid by bank; given at creation or when the user chooses a refund.
  ADD COLUMN refund_address text CHECK (char_length(refund_address) BETWEEN 10 AND 128),
  ADD COLUMN refund_memo text CHECK (char_length(btrim(refund_memo)) BETWEEN 1 AND 64),
  -- What actually arrived, when staff recorded it with the payment.
  ADD COLUMN received_amount numeric CHECK (received_amount > 0),
  -- Why the order waits for the user (needs_user_action).
  ADD COLUMN action_reason text CHECK (action_reason IN (
    'underpaid', 'overpaid', 'late_payment', 'refund_required')),
  -- Why the payment is held (on_hold): the category the user is shown with what they can do.
  ADD COLUMN hold_category text CHECK (hold_category IN (
    'aml_review', 'source_of_funds', 'sanctions_screening', 'identity_verification')),
  -- The figures the order is paid out at when the user continued at the current rate with
  -- the amount that arrived (underpaid, overpaid, late).
  ADD COLUMN settled_receive_amount numeric CHECK (settled_receive_amount > 0),
  ADD COLUMN settled_rate numeric CHECK (settled_rate > 0),
  ADD COLUMN refund_tx_id text CHECK (char_length(btrim(refund_tx_id)) BETWEEN 1 AND 256),
  ADD COLUMN expired_at timestamptz,
  ADD COLUMN refunded_at timestamptz,
  ADD CONSTRAINT transactions_reason_when_user_action CHECK (
    status <> 'needs_user_action' OR action_reason IS NOT NULL),
  ADD CONSTRAINT transactions_category_when_on_hold CHECK (
    status <> 'on_hold' OR hold_category IS NOT NULL),
  ADD CONSTRAINT transactions_refund_tx_when_refunded CHECK (
    status <> 'refunded' OR refund_tx_id IS NOT NULL),
  ADD CONSTRAINT transactions_requote_complete CHECK (
    (requoted_at IS NULL) = (quoted_receive_amount IS NULL)
    AND (quoted_receive_amount IS NULL) = (quoted_rate IS NULL)),
  ADD CONSTRAINT transactions_settlement_complete CHECK (
    (settled_receive_amount IS NULL) = (settled_rate IS NULL));

-- Orders already in the queue keep the promise they were made when they were created.
UPDATE public.transactions SET requisites_due_at = created_at + interval '10 minutes';
UPDATE public.transactions SET pay_by = requisites_at + public.currency_payment_window(send_currency)
 WHERE requisites_at IS NOT NULL;

-- The deadlines job's two scans, and the public requisites check by address.
CREATE INDEX transactions_pay_by_idx ON public.transactions (pay_by)
  WHERE status = 'waiting_for_payment';
CREATE INDEX transactions_requisites_due_idx ON public.transactions (requisites_due_at)
  WHERE status = 'waiting_for_operator' AND requisites_late_at IS NULL;
CREATE INDEX transactions_deposit_address_idx ON public.transactions (deposit_address)
  WHERE deposit_address IS NOT NULL;

CREATE OR REPLACE FUNCTION public.transaction_transition_allowed(from_status text, to_status text)
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (from_status, to_status) IN (
    ('waiting_for_operator', 'waiting_for_payment'),
    ('waiting_for_operator', 'canceled'),
    ('waiting_for_payment', 'paid'),
    ('waiting_for_payment', 'canceled'),
    ('waiting_for_payment', 'expired'),
    -- the payment arrived but not as agreed (underpaid, overpaid), or it is held for review
    ('waiting_for_payment', 'needs_user_action'),
    ('waiting_for_payment', 'on_hold'),
    -- a payment that arrives after the window
    ('expired', 'needs_user_action'),
    ('expired', 'on_hold'),
    ('paid', 'completed'),
    ('paid', 'on_hold'),
    -- a hold is released, or the funds go back (with the user's refund address)
    ('on_hold', 'paid'),
    ('on_hold', 'needs_user_action'),
    ('on_hold', 'refund_in_progress'),
    -- the user continues at the current rate, or asks for a refund
    ('needs_user_action', 'paid'),
    ('needs_user_action', 'refund_in_progress'),
    ('refund_in_progress', 'refunded'))
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
  IF (NEW.user_id, NEW.send_currency, NEW.receive_currency, NEW.send_amount, NEW.email,
      NEW.wallet_address, NEW.iban, NEW.payout_memo, NEW.created_at)
     IS DISTINCT FROM
     (OLD.user_id, OLD.send_currency, OLD.receive_currency, OLD.send_amount, OLD.email,
      OLD.wallet_address, OLD.iban, OLD.payout_memo, OLD.created_at) THEN
    RAISE EXCEPTION 'the terms of transaction % cannot be changed', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;
  -- The locked figures change only when the service re-quotes its own late order as it
  -- gives the requisites, and then only in the user's favour.
  IF (NEW.receive_amount, NEW.rate) IS DISTINCT FROM (OLD.receive_amount, OLD.rate)
     AND NOT (OLD.status = 'waiting_for_operator' AND NEW.status = 'waiting_for_payment'
              AND OLD.requoted_at IS NULL AND NEW.requoted_at IS NOT NULL
              AND NEW.receive_amount > OLD.receive_amount
              AND NEW.quoted_receive_amount = OLD.receive_amount AND NEW.quoted_rate = OLD.rate) THEN
    RAISE EXCEPTION 'the terms of transaction % cannot be changed', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;
  IF (NEW.settled_receive_amount, NEW.settled_rate) IS DISTINCT FROM
     (OLD.settled_receive_amount, OLD.settled_rate)
     AND NOT (OLD.status = 'needs_user_action' AND NEW.status = 'paid'
              AND OLD.settled_receive_amount IS NULL) THEN
    RAISE EXCEPTION 'the settlement of transaction % is set once, when the user continues', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;
  -- A refund goes where the user said once it is under way.
  IF OLD.status IN ('refund_in_progress', 'refunded')
     AND (NEW.refund_address, NEW.refund_memo) IS DISTINCT FROM (OLD.refund_address, OLD.refund_memo) THEN
    RAISE EXCEPTION 'the refund address of transaction % is fixed while it is refunded', OLD.number
      USING ERRCODE = 'check_violation';
  END IF;

  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF NOT public.transaction_transition_allowed(OLD.status, NEW.status) THEN
      RAISE EXCEPTION 'transaction % cannot move from % to %', OLD.number, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    CASE NEW.status
      WHEN 'waiting_for_payment' THEN
        NEW.requisites_at := now();
        NEW.pay_by := now() + public.currency_payment_window(NEW.send_currency);
      WHEN 'paid' THEN NEW.paid_at := COALESCE(OLD.paid_at, now());
      WHEN 'completed' THEN NEW.completed_at := now();
      WHEN 'canceled' THEN NEW.canceled_at := now();
      WHEN 'expired' THEN NEW.expired_at := now();
      WHEN 'refunded' THEN NEW.refunded_at := now();
      ELSE NULL;
    END CASE;
    -- The reason of a side state belongs to it.
    IF NEW.status <> 'needs_user_action' THEN NEW.action_reason := NULL; END IF;
    IF NEW.status <> 'on_hold' THEN NEW.hold_category := NULL; END IF;
  ELSIF OLD.status IN ('completed', 'canceled', 'refunded') THEN
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

-- The status history notes why an order stepped aside.
CREATE OR REPLACE FUNCTION public.transactions_record_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO public.transaction_status_history (transaction_id, from_status, to_status, changed_by, note)
    VALUES (NEW.id,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END,
            NEW.status,
            (SELECT id FROM public.portal_users WHERE id = public.hasura_session_user_id()),
            CASE NEW.status
              WHEN 'canceled' THEN NEW.cancel_reason
              WHEN 'needs_user_action' THEN NEW.action_reason
              WHEN 'on_hold' THEN NEW.hold_category
              WHEN 'refunded' THEN NEW.refund_tx_id
            END);
  END IF;
  RETURN NULL;
END;
$$;

-- An order's place in the operator's queue (1 is next), while it waits for the operator; a
-- computed field, so a user sees their position without seeing anyone else's order.
CREATE FUNCTION public.transaction_queue_position(t public.transactions) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN t.status = 'waiting_for_operator' THEN
    (SELECT count(*)::integer + 1 FROM public.transactions q
      WHERE q.status = 'waiting_for_operator'
        AND (q.created_at, q.number) < (t.created_at, t.number))
  END
$$;

-- The queue's tabs list every status, the side states after the backbone.
CREATE OR REPLACE VIEW public.transaction_status_counts AS
SELECT s.status,
       s.position,
       (SELECT count(*) FROM public.transactions t WHERE t.status = s.status)::integer AS total
  FROM (VALUES ('waiting_for_operator', 1), ('waiting_for_payment', 2), ('paid', 3),
               ('completed', 4), ('canceled', 5), ('on_hold', 6), ('needs_user_action', 7),
               ('refund_in_progress', 8), ('refunded', 9), ('expired', 10)) AS s (status, position);

-- The user's anti-phishing phrase, shown beside the payment details on our own pages only, so
-- a copy of the page elsewhere cannot show it.
ALTER TABLE public.portal_users
  ADD COLUMN anti_phishing_phrase text
    CHECK (char_length(btrim(anti_phishing_phrase)) BETWEEN 4 AND 64
           AND anti_phishing_phrase !~ '[[:cntrl:]]');
