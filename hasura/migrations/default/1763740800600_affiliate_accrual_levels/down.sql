DROP VIEW public.referral_history;
DROP FUNCTION public.mask_email(text);
DROP VIEW public.affiliate_statistics;
DROP TRIGGER transactions_on_completed ON public.transactions;
DROP FUNCTION public.transactions_on_completed();
DROP TABLE public.affiliate_settings;
DROP TRIGGER transactions_amount_usdt_fixed ON public.transactions;
DROP FUNCTION public.transactions_amount_usdt_fixed();
ALTER TABLE public.transactions DROP COLUMN amount_usdt;
