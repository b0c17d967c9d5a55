DROP TABLE public.bonus_withdrawals;
DROP FUNCTION public.bonus_withdrawals_guard();
DROP FUNCTION public.affiliate_available_usdt(uuid);
DROP TABLE public.referral_bonuses;
