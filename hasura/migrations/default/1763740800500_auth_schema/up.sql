-- Tables only the auth service uses. They live in their own schema, which the engine does
-- not track, so no GraphQL role can ever read them. Every secret is stored as a hash.

CREATE SCHEMA auth;

-- Opaque refresh tokens, rotated on every use. A family is one sign-in: presenting a
-- token that was already rotated revokes the whole family (reuse detection).
CREATE TABLE auth.refresh_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  family_id   uuid NOT NULL,
  -- SHA-256 of the token.
  token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  rotated_at  timestamptz,
  revoked_at  timestamptz,
  user_agent  text CHECK (char_length(user_agent) <= 512),
  ip          inet,
  CONSTRAINT refresh_tokens_expiry_after_creation CHECK (expires_at > created_at)
);
CREATE INDEX refresh_tokens_family_idx ON auth.refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON auth.refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expires_idx ON auth.refresh_tokens (expires_at);

-- Single-use links to /change-password/{token}.
CREATE TABLE auth.password_reset_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_tokens_user_idx ON auth.password_reset_tokens (user_id);

-- E-mailed 6-digit codes for the second login step and for quick-auth of a known e-mail.
-- The challenge ticket given to the client and the code are both stored hashed.
CREATE TABLE auth.login_codes (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES public.portal_users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('login_2fa', 'quick_auth')),
  ticket_hash bytea NOT NULL UNIQUE CHECK (octet_length(ticket_hash) = 32),
  code_hash   bytea NOT NULL CHECK (octet_length(code_hash) = 32),
  attempts    smallint NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_codes_user_purpose_idx ON auth.login_codes (user_id, purpose, created_at DESC);

-- Attempt counters shared by every auth-service instance (fixed windows per key).
CREATE TABLE auth.rate_limits (
  key        text PRIMARY KEY CHECK (char_length(key) <= 300),
  hits       integer NOT NULL CHECK (hits >= 0),
  reset_at   timestamptz NOT NULL
);
CREATE INDEX rate_limits_reset_idx ON auth.rate_limits (reset_at);
