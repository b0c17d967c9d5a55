-- Joining the two worlds (issue 22; docs/decisions/037-linking-telegram-and-email.md).

-- A portal account links its Telegram through the bot: t.me/<bot>?start=link_<token>. Only the
-- token's SHA-256 is stored; it lives 15 minutes and is consumed once, by the bot.
CREATE TABLE auth.telegram_link_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX telegram_link_tokens_user_idx ON auth.telegram_link_tokens (user_id, created_at DESC);

-- A Telegram-only account adds an e-mail by a code mailed to it: the address waits on the
-- challenge and becomes the account's only when the code comes back.
ALTER TABLE auth.login_codes ADD COLUMN email text CHECK (char_length(email) <= 320);
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth', 'confirm_address', 'two_factor_on',
                     'two_factor_off', 'add_email'));
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_add_email_has_email
  CHECK ((purpose = 'add_email') = (email IS NOT NULL));

-- An address's first proof resets what an unproven account's holder set (decision 016), since
-- whoever typed the address may not own it. A Telegram account that proves an address it adds
-- had no address before: its holder is the Telegram user who proved it, so nothing is reset
-- and its sessions (the mini-app's) stay. An unproven account cannot link a Telegram
-- (decision 037); should one have a Telegram at its first proof, the link goes with the rest.
CREATE OR REPLACE FUNCTION public.guard_unproven_accounts() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_verified_email AND NOT OLD.is_verified_email AND OLD.email IS NOT NULL THEN
    -- The first proof: whoever held the account before it may have been someone else, so
    -- nothing they could set survives and every session they had ends. (The auth service
    -- decides the password and the referrer, which depend on how the address was proven.)
    NEW.anti_phishing_phrase := NULL;
    NEW.is_2fa := false;
    -- A Telegram linked before the first proof was linked by whoever held the account then.
    NEW.telegram_id := NULL;
    NEW.telegram_username := NULL;
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
