DROP TRIGGER portal_users_referral_names_reserved ON public.portal_users;
DROP FUNCTION public.keep_referral_names_reserved();
DROP TABLE public.retired_referral_names;
