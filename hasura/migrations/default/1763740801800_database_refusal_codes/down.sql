CREATE OR REPLACE FUNCTION public.bank_accounts_details_fixed() RETURNS trigger
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
