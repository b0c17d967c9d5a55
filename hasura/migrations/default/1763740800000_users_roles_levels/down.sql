DROP TABLE public.roles;
DROP TABLE public.portal_users;
DROP TABLE public.user_levels;
DROP FUNCTION public.hasura_session_user_id();
DROP FUNCTION public.set_updated_at();
