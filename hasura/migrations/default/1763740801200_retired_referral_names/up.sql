-- Referral names given up stay their owner's (issue 19): a name someone printed on flyers and
-- shared in links must never be taken by another account, which would then collect the
-- sign-ups from the old links. A name is retired when its owner changes it; it stays reserved
-- for them (they may take it back), and links with it keep crediting them
-- (auth-service/src/db/users.ts). Not tracked in the metadata: nobody reads it through GraphQL.
CREATE TABLE public.retired_referral_names (
  name_lower text PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  retired_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retired_referral_names_user_idx ON public.retired_referral_names (user_id);

CREATE FUNCTION public.keep_referral_names_reserved() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND lower(NEW.referral_name) = lower(OLD.referral_name) THEN
    RETURN NEW;
  END IF;
  -- Another account's old name answers as a taken name does (the same unique violation).
  IF EXISTS (SELECT 1 FROM public.retired_referral_names
              WHERE name_lower = lower(NEW.referral_name) AND user_id <> NEW.id) THEN
    RAISE EXCEPTION 'referral name % is reserved', NEW.referral_name
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'portal_users_referral_name_lower_key';
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO public.retired_referral_names (name_lower, user_id)
      VALUES (lower(OLD.referral_name), OLD.id)
      ON CONFLICT (name_lower) DO NOTHING;
    -- Taking one's own old name back makes it current again.
    DELETE FROM public.retired_referral_names
      WHERE name_lower = lower(NEW.referral_name) AND user_id = NEW.id;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER portal_users_referral_names_reserved
  BEFORE INSERT OR UPDATE OF referral_name ON public.portal_users
  FOR EACH ROW EXECUTE FUNCTION public.keep_referral_names_reserved();
