-- On-chain watchers (issue 25, decision 052): which networks are watched and how, what each
-- currency needs to count as paid, every transfer a watcher saw to an order's deposit address,
-- each network's watcher health, and the source of an automatic status change.

-- A network the watchers can follow. A network is watched only when the watcher process has
-- an endpoint for it (configuration); this row is what staff decide. Explorer links come from
-- the chains' table in code (shared/src/exchange/chains.ts, decision 042).
CREATE TABLE public.chain_networks (
  -- The `currencies.network` code (BTC, ERC20, TRC20, ...).
  network            text PRIMARY KEY CHECK (network ~ '^[A-Z0-9]{2,16}$'),
  family             text NOT NULL CHECK (family IN ('evm', 'tron', 'esplora')),
  -- The currency that is the chain's own coin (ETH on ERC20, TRX on TRC20): its transfers are
  -- the transactions' own value; every other watched currency on the network is a token.
  native_currency    text REFERENCES public.currencies (code) ON UPDATE CASCADE,
  -- Staff's switch: off, payments are still seen and shown, but no order moves by itself.
  automation_enabled boolean NOT NULL DEFAULT true,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER chain_networks_set_updated_at BEFORE UPDATE ON public.chain_networks
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER chain_networks_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.chain_networks
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('network');

-- What a currency needs to be watched: the confirmations a payment must reach before it
-- counts, and for a token its contract and the decimals of its base unit. A currency with no
-- confirmations_required is not watched; nor is a token without a contract.
ALTER TABLE public.currencies
  ADD COLUMN confirmations_required integer CHECK (confirmations_required BETWEEN 1 AND 10000),
  ADD COLUMN token_contract text CHECK (token_contract ~ '^[A-Za-z0-9]{20,128}$'),
  ADD COLUMN token_decimals smallint CHECK (token_decimals BETWEEN 0 AND 36),
  ADD CONSTRAINT currencies_token_decimals_with_contract CHECK (
    (token_contract IS NULL) = (token_decimals IS NULL)),
  ADD CONSTRAINT currencies_chain_fields_crypto_only CHECK (
    kind = 'crypto' OR (confirmations_required IS NULL AND token_contract IS NULL));

-- One transfer a watcher saw to a watched address. Unique per transfer, so a second watcher
-- instance, or one restarted, that sees it again writes nothing new.
CREATE TABLE public.chain_payments (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  network                text NOT NULL REFERENCES public.chain_networks (network) ON UPDATE CASCADE,
  tx_hash                text NOT NULL CHECK (tx_hash ~ '^[A-Za-z0-9]{16,128}$'),
  -- Which transfer of the transaction: a token Transfer log's index, a Bitcoin output's
  -- index, 0 for a transaction's own value.
  output_index           integer NOT NULL CHECK (output_index >= 0),
  currency_code          text NOT NULL REFERENCES public.currencies (code) ON UPDATE CASCADE,
  to_address             text NOT NULL CHECK (char_length(to_address) BETWEEN 10 AND 128),
  -- From the integer base units and the currency's decimals, never through a float.
  amount                 numeric NOT NULL CHECK (amount > 0),
  -- Where the transfer is now (a re-org moves it; dropped: no longer on the chain).
  block_number           bigint CHECK (block_number >= 0),
  block_hash             text CHECK (block_hash ~ '^[A-Za-z0-9]{16,128}$'),
  confirmations          integer NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
  -- The currency's figure when the transfer was first seen: a later change by staff does not
  -- move the bar under a payment on its way.
  confirmations_required integer NOT NULL CHECK (confirmations_required >= 1),
  state                  text NOT NULL DEFAULT 'seen' CHECK (state IN ('seen', 'confirmed', 'dropped')),
  -- The order whose deposit address it paid (none: the address is no open order's).
  transaction_id         uuid REFERENCES public.transactions (id) ON DELETE SET NULL,
  -- What the service did with it once confirmed (recordChainPayment): the order moved to
  -- paid or to the user's decision, or why it did not move.
  outcome                text CHECK (outcome IN (
    'paid', 'needs_user_action', 'automation_off', 'order_not_waiting', 'no_order')),
  applied_at             timestamptz,
  first_seen_at          timestamptz NOT NULL DEFAULT now(),
  confirmed_at           timestamptz,
  updated_at             timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chain_payments_transfer_once UNIQUE (network, tx_hash, output_index, currency_code),
  CONSTRAINT chain_payments_block_known CHECK (
    state = 'dropped' OR (block_number IS NOT NULL AND block_hash IS NOT NULL)),
  CONSTRAINT chain_payments_confirmed_at_depth CHECK (
    state <> 'confirmed' OR (confirmations >= confirmations_required AND confirmed_at IS NOT NULL)),
  CONSTRAINT chain_payments_outcome_when_applied CHECK ((outcome IS NULL) = (applied_at IS NULL))
);
CREATE INDEX chain_payments_transaction_idx ON public.chain_payments (transaction_id, first_seen_at);
CREATE INDEX chain_payments_network_state_idx ON public.chain_payments (network, state);
CREATE TRIGGER chain_payments_set_updated_at BEFORE UPDATE ON public.chain_payments
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- A transfer is what it is: what it paid, to whom and for which order never changes, a
-- confirmed payment never goes back (a re-org that deep is out of what the figure allows, and
-- the watcher refuses to follow it), and an outcome, once recorded, stays.
CREATE FUNCTION public.chain_payments_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.network, NEW.tx_hash, NEW.output_index, NEW.currency_code, NEW.to_address, NEW.amount,
      NEW.confirmations_required, NEW.first_seen_at)
     IS DISTINCT FROM
     (OLD.network, OLD.tx_hash, OLD.output_index, OLD.currency_code, OLD.to_address, OLD.amount,
      OLD.confirmations_required, OLD.first_seen_at) THEN
    RAISE EXCEPTION 'chain payment %: the transfer itself cannot change', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.transaction_id IS NOT NULL AND NEW.transaction_id IS DISTINCT FROM OLD.transaction_id
     AND NEW.transaction_id IS NOT NULL THEN
    RAISE EXCEPTION 'chain payment %: the order it paid cannot change', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.state = 'confirmed' AND (NEW.state <> 'confirmed'
       OR (NEW.block_hash, NEW.block_number) IS DISTINCT FROM (OLD.block_hash, OLD.block_number)) THEN
    RAISE EXCEPTION 'chain payment %: a confirmed payment cannot be undone', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.outcome IS NOT NULL AND (NEW.outcome, NEW.applied_at) IS DISTINCT FROM (OLD.outcome, OLD.applied_at) THEN
    RAISE EXCEPTION 'chain payment %: its outcome was already recorded', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER chain_payments_guard BEFORE UPDATE ON public.chain_payments
  FOR EACH ROW EXECUTE FUNCTION public.chain_payments_guard();

-- Each network's watcher health: the last block processed, the head it saw, and its last
-- error. Written by the watcher, read by the console and the metrics.
CREATE TABLE public.chain_watch_state (
  network           text PRIMARY KEY REFERENCES public.chain_networks (network)
                      ON UPDATE CASCADE ON DELETE CASCADE,
  last_block_number bigint CHECK (last_block_number >= 0),
  last_block_hash   text,
  head_number       bigint CHECK (head_number >= 0),
  -- When the watcher last read the chain successfully.
  checked_at        timestamptz,
  last_error        text CHECK (char_length(last_error) <= 2000),
  last_error_at     timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER chain_watch_state_set_updated_at BEFORE UPDATE ON public.chain_watch_state
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Who moved an order, beyond the signed-in person: `watcher:<network>` when a watcher's
-- confirmed payment did (set for the transaction in `app.status_source`); NULL is a person
-- (changed_by) or the service's own clock.
ALTER TABLE public.transaction_status_history
  ADD COLUMN source text CHECK (source ~ '^watcher:[A-Z0-9]{2,16}$');

CREATE OR REPLACE FUNCTION public.transactions_record_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO public.transaction_status_history (transaction_id, from_status, to_status, changed_by, note, source)
    VALUES (NEW.id,
            CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END,
            NEW.status,
            (SELECT id FROM public.portal_users WHERE id = public.hasura_session_user_id()),
            CASE NEW.status
              WHEN 'canceled' THEN NEW.cancel_reason
              WHEN 'needs_user_action' THEN NEW.action_reason
              WHEN 'on_hold' THEN NEW.hold_category
              WHEN 'refunded' THEN NEW.refund_tx_id
            END,
            NULLIF(current_setting('app.status_source', true), ''));
  END IF;
  RETURN NULL;
END;
$$;
