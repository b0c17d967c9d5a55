import { GraphqlRequestError } from '@app/client/graphql/request.ts';
import type { AnyT } from '@app/client/i18n/i18n.ts';
import { errorKey, isErrorCode } from '@app/shared/errors';
import { isOrderStatus } from '@app/shared/orders/vocabulary';

import { statusLabel } from './statuses.ts';

/*
 * What a failed staff action tells the operator, in the page's language. The actions answer
 * with a code (decisions 010 and 012): `invalid-transition` (with the order's `status` now),
 * `invalid-input` (with the `field`), `not-found`; the engine refuses a role with
 * `validation-failed` or `access-denied`. Any other code of the error catalog shows its
 * catalog message (`errors:<code>`); an unknown one, the server's message.
 */

export interface ActionFailure {
  code: string | undefined;
  field: string | undefined;
  status: string | undefined;
  message: string;
}

export function failureOf(error: unknown): ActionFailure {
  if (GraphqlRequestError.is(error)) {
    const extensions = error.errors[0]?.extensions ?? {};
    const field = extensions['field'];
    const status = extensions['status'];
    return {
      code: error.code ?? (error.status === undefined ? undefined : `http-${error.status}`),
      field: typeof field === 'string' ? field : undefined,
      status: typeof status === 'string' ? status : undefined,
      message: error.message,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'network-error', field: undefined, status: undefined, message };
}

/** The failure as one sentence for the dialog. */
export function actionErrorMessage(error: unknown, t: AnyT): string {
  const failure = failureOf(error);
  switch (failure.code) {
    case 'invalid-transition':
      return isOrderStatus(failure.status)
        ? t('staffOrders:errors.invalidTransition', { status: statusLabel(t, failure.status) })
        : t('staffOrders:errors.invalidTransitionPlain');
    case 'not-found':
      return t('staffOrders:errors.notFound');
    case 'invalid-input':
      if (failure.field === 'bankAccountId') return t('staffOrders:errors.bankAccount');
      if (failure.field === 'depositAddress') return t('staffOrders:errors.addressLength');
      if (failure.field === 'receivedAmount') return t('staffOrders:errors.amountInvalid');
      if (failure.field === 'category') return t('staffOrders:errors.category');
      return t('staffOrders:errors.invalidInput', { message: failure.message });
    case 'validation-failed':
    case 'access-denied':
    case 'permission-error':
      return t('staffOrders:errors.forbidden');
    case 'network-error':
      return t('staffOrders:errors.network');
    default:
      return t('staffOrders:errors.other', {
        message: isErrorCode(failure.code) ? t(errorKey(failure.code)) : failure.message,
      });
  }
}
