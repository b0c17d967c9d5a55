-- The service's bank accounts, exchange orders (transactions) and their status history.
-- The order lifecycle of spec section 4 is enforced here, so no client can skip a step.

CREATE TABLE public.bank_accounts (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  label          text CHECK (char_length(label) <= 64),
  beneficiary    text NOT NULL CHECK (char_length(btrim(beneficiary)) BETWEEN 1 AND 140),
  -- IBAN or a local account number, stored without spaces.
  account_number text NOT NULL CHECK (account_number ~ '^[A-Z0-9]{5,34}$'),
  swift_bic      text NOT NULL CHECK (swift_bic ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
  bank_address   text NOT NULL CHECK (char_length(btrim(bank_address)) BETWEEN 1 AND 300),
  currency_code  text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE,
  is_active      boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bank_accounts_currency_active_idx ON public.bank_accounts (currency_code, is_active);
CREATE TRIGGER bank_accounts_set_updated_at BEFORE UPDATE ON public.bank_accounts
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE public.transactions (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The number people see and quote to support.
  number            bigint GENERATED ALWAYS AS IDENTITY (START WITH 100001) UNIQUE,
  user_id           uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE RESTRICT,
  send_currency     text NOT NULL,
  receive_currency  text NOT NULL,
  send_amount       numeric NOT NULL CHECK (send_amount > 0),
  receive_amount    numeric NOT NULL CHECK (receive_amount > 0),
  -- Units of receive_currency per one unit of send_currency, as quoted.
  rate              numeric NOT NULL CHECK (rate > 0),
  status            text NOT NULL DEFAULT 'waiting_for_operator' CHECK (status IN (
                      'waiting_for_operator', 'waiting_for_payment', 'paid', 'completed', 'canceled')),
  email             text NOT NULL CHECK (char_length(email) <= 254
                                         AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  full_name         text NOT NULL CHECK (char_length(btrim(full_name)) BETWEEN 1 AND 200),
  -- Where the payout goes: a wallet address when the user receives crypto, an IBAN when
  -- the user receives fiat.
  wallet_address    text CHECK (char_length(wallet_address) BETWEEN 10 AND 128),
  iban              text CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  reason            text NOT NULL CHECK (char_length(btrim(reason)) BETWEEN 1 AND 1000),
  locale            text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ru', 'ua')),
  source            text NOT NULL DEFAULT 'web' CHECK (source IN ('web', 'telegram')),
  -- One order per idempotency key per user, so a double click makes one order.
  idempotency_key   text CHECK (char_length(idempotency_key) BETWEEN 8 AND 128),
  -- Payment requisites the operator supplies: a deposit wallet address for crypto the
  -- user sends, or one of the service's bank accounts plus a unique reference for fiat.
  deposit_address   text CHECK (char_length(deposit_address) BETWEEN 10 AND 128),
  deposit_memo      text CHECK (char_length(deposit_memo) <= 64),
  bank_account_id   uuid REFERENCES public.bank_accounts (id),
  payment_reference text UNIQUE CHECK (payment_reference ~ '^[A-Z0-9-]{4,35}$'),
  payout_tx_id      text CHECK (char_length(btrim(payout_tx_id)) BETWEEN 1 AND 256),
  canceled_by       text CHECK (canceled_by IN ('user', 'staff')),
  cancel_reason     text CHECK (char_length(cancel_reason) <= 500),
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  requisites_at     timestamptz,
  paid_at           timestamptz,
  completed_at      timestamptz,
  canceled_at       timestamptz,
  CONSTRAINT transactions_direction_fkey FOREIGN KEY (send_currency, receive_currency)
    REFERENCES public.exchange_directions (from_currency, to_currency) ON UPDATE CASCADE,
  CONSTRAINT transactions_one_payout_target CHECK (num_nonnulls(wallet_address, iban) <= 1),
  CONSTRAINT transactions_user_idempotency_key UNIQUE (user_id, idempotency_key),
  CONSTRAINT transactions_requisites_when_awaiting_payment CHECK (
    status IN ('waiting_for_operator', 'canceled')
    OR deposit_address IS NOT NULL OR bank_account_id IS NOT NULL),
  CONSTRAINT transactions_reference_with_bank_account CHECK (
    bank_account_id IS NULL OR payment_reference IS NOT NULL),
  CONSTRAINT transactions_payout_tx_when_completed CHECK (status <> 'completed' OR payout_tx_id IS NOT NULL),
  CONSTRAINT transactions_cancel_fields CHECK ((status = 'canceled') = (canceled_by IS NOT NULL))
);
CREATE INDEX transactions_user_created_idx ON public.transactions (user_id, created_at DESC);
CREATE INDEX transactions_status_created_idx ON public.transactions (status, created_at DESC);
CREATE INDEX transactions_created_idx ON public.transactions (created_at DESC);
CREATE INDEX transactions_email_lower_idx ON public.transactions (lower(email));
CREATE INDEX transactions_bank_account_idx ON public.transactions (bank_account_id);

CREATE TABLE public.transaction_status_history (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id uuid NOT NULL REFERENCES public.transactions (id) ON DELETE CASCADE,
  from_status    text,
  to_status      text NOT NULL,
  -- The signed-in user whose request made the change, when it came through the engine.
  changed_by     uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  note           text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transaction_status_history_tx_idx ON public.transaction_status_history (transaction_id, id);

-- Allowed moves of spec section 4. Completed and canceled are final.
CREATE FUNCTION public.transaction_transition_allowed(from_status text, to_status text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT (from_status, to_status) IN (
    ('waiting_for_operator', 'waiting_for_payment'),
    ('waiting_for_operator', 'canceled'),
    ('waiting_for_payment', 'paid'),
    ('waiting_for_payment', 'canceled'),
    ('paid', 'completed'))
$$;

CREATE FUNCTION public.transactions_guard() RETURNS trigger
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
CREATE TRIGGER transactions_guard BEFORE INSERT OR UPDATE ON public.transactions
  FOR EACH ROW EXECUTE FUNCTION public.transactions_guard();
CREATE TRIGGER transactions_set_updated_at BEFORE UPDATE ON public.transactions
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE FUNCTION public.transactions_record_status() RETURNS trigger
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
CREATE TRIGGER transactions_record_status AFTER INSERT OR UPDATE OF status ON public.transactions
  FOR EACH ROW EXECUTE FUNCTION public.transactions_record_status();
