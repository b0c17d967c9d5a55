-- Unproven accounts and session revocation (issue 19, points 3 and 7b;
-- docs/decisions/016-unproven-accounts-and-revocation.md).
--
-- An e-mail account is unproven until its address is proven (a mailed code or a reset link
-- comes back): quick-auth and /register make such accounts for whoever types the address. The
-- rules below hold whoever writes (GraphQL as the user, the auth service, staff).

-- Every access token carries the epoch its account had when it was signed
-- (`x-hasura-session-epoch`); the user's permissions and the actions service accept only the
-- current one. Raising it ends every access token at once, where Hasura itself checks only
-- signatures and expiry.
ALTER TABLE public.portal_users
  ADD COLUMN session_epoch integer NOT NULL DEFAULT 0 CHECK (session_epoch >= 0);

-- The referral that the request proving an address came with (quick-auth of a known
-- address): the referrer of an unproven account is the prover's, not its creator's.
ALTER TABLE auth.login_codes
  ADD COLUMN referrer_id uuid REFERENCES public.portal_users (id) ON DELETE SET NULL;

CREATE FUNCTION public.guard_unproven_accounts() RETURNS trigger
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

CREATE TRIGGER portal_users_guard_unproven
  BEFORE UPDATE ON public.portal_users
  FOR EACH ROW EXECUTE FUNCTION public.guard_unproven_accounts();
