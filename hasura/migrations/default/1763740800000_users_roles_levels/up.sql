-- Users, staff roles and user levels (spec section 3: portal_users, roles, user_levels).
-- Rules that must hold whoever writes live here as constraints and triggers.

CREATE FUNCTION public.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;

-- The session of the GraphQL request that made a change: the engine (like Hasura) sets
-- `hasura.user` to the session variables for every mutation. NULL outside a request.
CREATE FUNCTION public.hasura_session_user_id() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN id::uuid END
  FROM (SELECT NULLIF(current_setting('hasura.user', true), '')::json ->> 'x-hasura-user-id' AS id) AS session
$$;

-- A level carries margins; a user's level is the one whose status equals the user's status,
-- else the level `new` (spec section 4). Margins are fractions: 0.015 is 1.5 %.
CREATE TABLE public.user_levels (
  status      text PRIMARY KEY CHECK (status ~ '^[a-z][a-z0-9_]{0,31}$'),
  buy_margin  numeric(8, 6) NOT NULL CHECK (buy_margin >= 0 AND buy_margin < 1),
  sell_margin numeric(8, 6) NOT NULL CHECK (sell_margin >= 0 AND sell_margin < 1),
  min_orders  integer NOT NULL CHECK (min_orders >= 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT user_levels_min_orders_key UNIQUE (min_orders)
);
CREATE TRIGGER user_levels_set_updated_at BEFORE UPDATE ON public.user_levels
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE public.portal_users (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- NULL for accounts that so far only signed in through Telegram.
  email             text CHECK (email = btrim(email) AND char_length(email) <= 254
                                AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  is_verified_email boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  -- Matches user_levels.status when a level applies; not a foreign key on purpose, the
  -- spec falls back to `new` when no level matches.
  status            text NOT NULL DEFAULT 'new' CHECK (status ~ '^[a-z][a-z0-9_]{0,31}$'),
  is_2fa            boolean NOT NULL DEFAULT false,
  is_disabled       boolean NOT NULL DEFAULT false,
  -- argon2id PHC string; NULL for accounts without a password (Telegram, quick-auth).
  password_hash     text CHECK (password_hash LIKE '$argon2id$%'),
  telegram_id       bigint CHECK (telegram_id > 0),
  telegram_username text CHECK (char_length(telegram_username) <= 64),
  referrer_id       uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  -- Forms the referral link; spec section 5: 3 to 20 alphanumeric characters.
  referral_name     text NOT NULL DEFAULT substr(md5(gen_random_uuid()::text), 1, 12)
                    CONSTRAINT portal_users_referral_name_format CHECK (referral_name ~ '^[A-Za-z0-9]{3,20}$'),
  locale            text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ru', 'ua')),
  CONSTRAINT portal_users_not_own_referrer CHECK (referrer_id IS NULL OR referrer_id <> id),
  CONSTRAINT portal_users_telegram_id_key UNIQUE (telegram_id)
);
-- E-mail is unique regardless of case (Foo@x.com and foo@x.com are one account).
CREATE UNIQUE INDEX portal_users_email_lower_key ON public.portal_users (lower(email));
CREATE UNIQUE INDEX portal_users_referral_name_lower_key ON public.portal_users (lower(referral_name));
CREATE INDEX portal_users_referrer_id_idx ON public.portal_users (referrer_id);
CREATE INDEX portal_users_created_at_idx ON public.portal_users (created_at DESC);
CREATE TRIGGER portal_users_set_updated_at BEFORE UPDATE ON public.portal_users
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Staff roles; a user with no row here is a plain user.
CREATE TABLE public.roles (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  role_type  text NOT NULL CHECK (role_type IN ('admin', 'manager')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT roles_user_id_role_type_key UNIQUE (user_id, role_type)
);
