DROP TABLE public.support_requests;
DROP FUNCTION public.support_requests_mark_handled();
DROP FUNCTION public.support_requests_cooldown();
