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
ALTER TABLE public.transaction_status_history DROP COLUMN source;
DROP TABLE public.chain_watch_state;
DROP TABLE public.chain_payments;
DROP FUNCTION public.chain_payments_guard();
ALTER TABLE public.currencies
  DROP CONSTRAINT currencies_chain_fields_crypto_only,
  DROP CONSTRAINT currencies_token_decimals_with_contract,
  DROP COLUMN token_decimals,
  DROP COLUMN token_contract,
  DROP COLUMN confirmations_required;
DROP TABLE public.chain_networks;
