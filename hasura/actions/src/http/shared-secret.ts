import { safeEqual } from '@app/shared/crypto/safe-equal';

/** The header the engine sends with the secret (metadata: `value_from_env: ACTIONS_SECRET`). */
export const SECRET_HEADER = 'x-actions-secret';

/** Whether a request's secret is the expected one, compared in constant time. */
export const sameSecret = safeEqual;
