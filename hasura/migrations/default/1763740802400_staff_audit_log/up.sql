-- The staff audit log (issue 23): every change to what staff manage (bank accounts, customers'
-- custom rates, staff roles, user levels, the affiliate settings, a customer's level or switch),
-- who made it and the row before and after. Written by triggers, so every path is logged: the
-- console through the engine, the actions service, scripts and psql alike (decision 045).

CREATE TABLE public.staff_audit_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The transaction's time: all rows one mutation changed share it; id orders within it.
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The session of the change (`hasura.user`, set by the engine and the actions service for
  -- each mutation): NULL for a migration, a seed or a script. Not a foreign key: the log
  -- outlives the accounts it names, and an account's deletion must not touch it.
  actor_id   uuid,
  actor_role text,
  -- The database login that ran the statement, the only "who" when there is no session.
  db_role    text NOT NULL DEFAULT session_user,
  table_name text NOT NULL,
  row_key    text NOT NULL,
  action     text NOT NULL CHECK (action IN ('insert', 'update', 'delete')),
  before     jsonb,
  after      jsonb,
  CONSTRAINT staff_audit_log_rows_match_action CHECK (
    CASE action
      WHEN 'insert' THEN before IS NULL AND after IS NOT NULL
      WHEN 'update' THEN before IS NOT NULL AND after IS NOT NULL
      ELSE before IS NOT NULL AND after IS NULL
    END)
);
-- The console reads newest first, filtered by table, by actor or by a date range.
CREATE INDEX staff_audit_log_table_idx ON public.staff_audit_log (table_name, id DESC);
CREATE INDEX staff_audit_log_actor_idx ON public.staff_audit_log (actor_id, id DESC);
CREATE INDEX staff_audit_log_created_at_idx ON public.staff_audit_log (created_at DESC);

-- Append-only, whoever writes: rows are inserted only by staff_audit_record (a trigger, so the
-- insert runs at trigger depth 2 or more); a direct INSERT, any UPDATE or DELETE and TRUNCATE
-- are refused. Not a check violation on purpose: no client branches on it (decision 032), and
-- no role but admin can even try through GraphQL.
CREATE FUNCTION public.staff_audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the staff audit log is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER staff_audit_log_append_only BEFORE INSERT OR UPDATE OR DELETE ON public.staff_audit_log
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_log_append_only();
CREATE TRIGGER staff_audit_log_no_truncate BEFORE TRUNCATE ON public.staff_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION public.staff_audit_log_append_only();
-- Belt and braces for a non-superuser owner (a superuser ignores privileges; the triggers hold).
REVOKE UPDATE, DELETE, TRUNCATE ON public.staff_audit_log FROM PUBLIC, CURRENT_USER;

-- A row as the log keeps it: only the `keep` columns when any are named, and numbers as the
-- database prints them (JSON strings), so an amount or a margin is never read back as a float.
CREATE FUNCTION public.staff_audit_row(r jsonb, keep text[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_object_agg(e.key, CASE jsonb_typeof(e.value)
                                   WHEN 'number' THEN to_jsonb(e.value #>> '{}')
                                   ELSE e.value END)
    FROM jsonb_each(r) AS e
   WHERE cardinality(keep) = 0 OR e.key = ANY (keep)
$$;

-- Records one row's change. TG_ARGV[0] names the row's key column; further arguments, when
-- given, are the only columns kept in before/after (portal_users: never a password hash or a
-- phrase). An UPDATE that changed nothing but updated_at is not recorded.
CREATE FUNCTION public.staff_audit_record() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb;
  new_row jsonb;
  row_key text;
  session json := NULLIF(current_setting('hasura.user', true), '')::json;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  row_key := COALESCE(new_row, old_row) ->> TG_ARGV[0];
  old_row := public.staff_audit_row(old_row, TG_ARGV[1:]);
  new_row := public.staff_audit_row(new_row, TG_ARGV[1:]);
  IF TG_OP = 'UPDATE' AND old_row - 'updated_at' = new_row - 'updated_at' THEN
    RETURN NULL;
  END IF;
  INSERT INTO public.staff_audit_log
    (actor_id, actor_role, table_name, row_key, action, before, after)
  VALUES
    (public.hasura_session_user_id(), session ->> 'x-hasura-role', TG_TABLE_NAME, row_key,
     lower(TG_OP), old_row, new_row);
  RETURN NULL;
END;
$$;

CREATE TRIGGER bank_accounts_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.bank_accounts
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('id');
CREATE TRIGGER user_custom_carrency_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.user_custom_carrency
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('id');
CREATE TRIGGER roles_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.roles
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('id');
CREATE TRIGGER user_levels_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.user_levels
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('status');
CREATE TRIGGER affiliate_settings_staff_audit AFTER INSERT OR UPDATE OR DELETE ON public.affiliate_settings
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('id');
-- A customer's level and account switch are what staff change on portal_users (administrators'
-- update permission); a level reached by completing orders is recorded too, with the session
-- of whoever completed the order.
CREATE TRIGGER portal_users_staff_audit AFTER UPDATE OF status, is_disabled ON public.portal_users
  FOR EACH ROW EXECUTE FUNCTION public.staff_audit_record('id', 'id', 'email', 'status', 'is_disabled');
