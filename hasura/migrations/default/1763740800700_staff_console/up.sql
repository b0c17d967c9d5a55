-- The staff console (issue 7): what its pages filter and sort on stays an index lookup at
-- 100k+ orders, live per-status counts for the queue, a record of the feedback mails staff
-- send to customers, and bank account details that stay as customers were shown them.

-- Trigram indexes answer `_ilike` (Hasura's case-insensitive search) on part of an e-mail or
-- a Telegram username; a btree on lower(email) cannot serve ILIKE. pg_trgm is a trusted
-- extension (PostgreSQL 13+): the database owner may create it without being a superuser.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The queue: status (transactions_status_created_idx), created_at ranges and sort
-- (transactions_created_idx) and number (unique) are indexed already; the direction filter,
-- newest first, and the customer's e-mail are not.
CREATE INDEX transactions_direction_created_idx
  ON public.transactions (send_currency, receive_currency, created_at DESC);
CREATE INDEX transactions_email_trgm_idx ON public.transactions USING gin (email gin_trgm_ops);

-- Finding a customer by e-mail or Telegram username (user custom currency, managers).
CREATE INDEX portal_users_email_trgm_idx ON public.portal_users USING gin (email gin_trgm_ops);
CREATE INDEX portal_users_telegram_username_trgm_idx
  ON public.portal_users USING gin (telegram_username gin_trgm_ops);

-- Orders per status, every status listed (zero included), in lifecycle order: the queue's
-- tabs, live in one subscription. Each count is an index-only scan of
-- transactions_status_created_idx.
CREATE VIEW public.transaction_status_counts AS
SELECT s.status,
       s.position,
       (SELECT count(*) FROM public.transactions t WHERE t.status = s.status)::integer AS total
  FROM (VALUES ('waiting_for_operator', 1), ('waiting_for_payment', 2), ('paid', 3),
               ('completed', 4), ('canceled', 5)) AS s (status, position);

-- What staff wrote to customers through the console's feedback form (the
-- `sendSupportFeedback` action writes it in the transaction that sends the mail), optionally
-- answering a support request. It also backs the action's per-sender rate limit.
CREATE TABLE public.support_feedback (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  support_request_id uuid REFERENCES public.support_requests (id) ON DELETE SET NULL,
  sent_by            uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  email              text NOT NULL CHECK (char_length(email) <= 254
                                          AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  subject            text NOT NULL CHECK (char_length(btrim(subject)) BETWEEN 1 AND 200),
  message            text NOT NULL CHECK (char_length(btrim(message)) BETWEEN 1 AND 5000),
  sent_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_feedback_request_idx ON public.support_feedback (support_request_id, sent_at);
-- The rate limit (per sender) and the double-send check (per address).
CREATE INDEX support_feedback_sender_idx ON public.support_feedback (sent_by, sent_at DESC);
CREATE INDEX support_feedback_email_idx ON public.support_feedback (lower(email), sent_at DESC);

-- A bank account given to customers as payment details keeps those details: an order's
-- requisites show the account's row, so editing it would change what a customer was told to
-- pay to, and its currency must stay the orders' send currency. Staff deactivate the account
-- and add a new one; the label and the active flag can always change.
CREATE FUNCTION public.bank_accounts_details_fixed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.beneficiary, NEW.account_number, NEW.swift_bic, NEW.bank_address, NEW.currency_code)
     IS DISTINCT FROM
     (OLD.beneficiary, OLD.account_number, OLD.swift_bic, OLD.bank_address, OLD.currency_code)
     AND EXISTS (SELECT 1 FROM public.transactions WHERE bank_account_id = OLD.id) THEN
    RAISE EXCEPTION 'bank account % is the payment details of orders and cannot be changed; deactivate it and add a new account',
      COALESCE(OLD.label, OLD.account_number)
      USING ERRCODE = 'check_violation', CONSTRAINT = 'bank_accounts_details_fixed';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER bank_accounts_details_fixed BEFORE UPDATE ON public.bank_accounts
  FOR EACH ROW EXECUTE FUNCTION public.bank_accounts_details_fixed();
