UPDATE auth.login_codes SET consumed_at = COALESCE(consumed_at, now()), purpose = 'login_2fa', email = NULL
 WHERE purpose = 'add_email';
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_add_email_has_email;
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth', 'confirm_address', 'two_factor_on', 'two_factor_off'));
ALTER TABLE auth.login_codes DROP COLUMN email;

DROP TABLE auth.telegram_link_tokens;

CREATE OR REPLACE FUNCTION public.guard_unproven_accounts() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_verified_email AND NOT OLD.is_verified_email THEN
    -- The first proof: whoever held the account before it may have been someone else, so
    -- nothing they could set survives and every session they had ends. (The auth service
    -- decides the password and the referrer, which depend on how the address was proven.)
    NEW.anti_phishing_phrase := NULL;
    NEW.is_2fa := false;
    IF lower(NEW.referral_name) = lower(OLD.referral_name) THEN
      NEW.referral_name := substr(md5(gen_random_uuid()::text), 1, 12);
      -- Links already shared with the old name keep crediting this account (the owner's now).
      INSERT INTO public.retired_referral_names (name_lower, user_id)
        VALUES (lower(OLD.referral_name), OLD.id)
        ON CONFLICT (name_lower) DO NOTHING;
    END IF;
    NEW.session_epoch := OLD.session_epoch + 1;
    UPDATE auth.refresh_tokens SET revoked_at = now()
     WHERE user_id = NEW.id AND revoked_at IS NULL;
  ELSIF NEW.email IS NOT NULL AND NOT NEW.is_verified_email AND (
          NEW.anti_phishing_phrase IS DISTINCT FROM OLD.anti_phishing_phrase
          OR NEW.referral_name IS DISTINCT FROM OLD.referral_name
          OR (NEW.is_2fa AND NOT OLD.is_2fa)) THEN
    -- Clients match the code at the start of the message and show their own translation.
    RAISE EXCEPTION 'email-not-confirmed: confirm your e-mail first'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'portal_users_email_confirmed_first';
  END IF;
  IF NEW.is_disabled AND NOT OLD.is_disabled THEN
    -- A disabled account's sessions end now, not when their tokens expire.
    NEW.session_epoch := NEW.session_epoch + 1;
    UPDATE auth.refresh_tokens SET revoked_at = now()
     WHERE user_id = NEW.id AND revoked_at IS NULL;
  END IF;
  RETURN NEW;
END $$;
