-- Support requests from the contact page (name, e-mail, order id, message) and the staff
-- feedback form (subject). One request per e-mail or client per minute (spec sections 5, 9).

CREATE TABLE public.support_requests (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  name        text CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  email       text NOT NULL CHECK (char_length(email) <= 254
                                   AND email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  -- What the visitor typed as their order id; free text, an order may not exist.
  order_id    text CHECK (char_length(order_id) <= 64),
  subject     text CHECK (char_length(btrim(subject)) BETWEEN 1 AND 200),
  message     text NOT NULL CHECK (char_length(btrim(message)) BETWEEN 1 AND 5000),
  -- Identifies the sender's client (e.g. a hash of the address) for the cooldown.
  client_key  text CHECK (char_length(client_key) <= 128),
  handled     boolean NOT NULL DEFAULT false,
  handled_by  uuid REFERENCES public.portal_users (id) ON DELETE SET NULL,
  handled_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_requests_email_created_idx ON public.support_requests (lower(email), created_at DESC);
CREATE INDEX support_requests_client_created_idx ON public.support_requests (client_key, created_at DESC);
CREATE INDEX support_requests_handled_created_idx ON public.support_requests (handled, created_at DESC);

CREATE FUNCTION public.support_requests_cooldown() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Serialise concurrent requests from one sender so two at once cannot both pass.
  PERFORM pg_advisory_xact_lock(hashtext('support_requests:' || lower(NEW.email)));
  IF NEW.client_key IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('support_requests:' || NEW.client_key));
  END IF;
  IF EXISTS (
    SELECT 1 FROM public.support_requests
    WHERE created_at > now() - interval '1 minute'
      AND (lower(email) = lower(NEW.email) OR (NEW.client_key IS NOT NULL AND client_key = NEW.client_key))
  ) THEN
    RAISE EXCEPTION 'You have already submitted a request recently. Please try again in a minute.'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'support_requests_cooldown';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER support_requests_cooldown BEFORE INSERT ON public.support_requests
  FOR EACH ROW EXECUTE FUNCTION public.support_requests_cooldown();

CREATE FUNCTION public.support_requests_mark_handled() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.handled AND NOT OLD.handled THEN
    NEW.handled_at := now();
    NEW.handled_by := COALESCE(NEW.handled_by,
      (SELECT id FROM public.portal_users WHERE id = public.hasura_session_user_id()));
  ELSIF NOT NEW.handled THEN
    NEW.handled_at := NULL;
    NEW.handled_by := NULL;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER support_requests_mark_handled BEFORE UPDATE ON public.support_requests
  FOR EACH ROW EXECUTE FUNCTION public.support_requests_mark_handled();
