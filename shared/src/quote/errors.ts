import type { QuoteError } from './types.ts';

/**
 * An English sentence for a refused quote, for logs and as the fallback text; clients show the
 * translated message of the error code instead.
 */
export function quoteErrorMessage(error: QuoteError): string {
  switch (error.code) {
    case 'unknown-direction':
      return 'This exchange direction does not exist.';
    case 'direction-disabled':
      return error.currency
        ? `Exchanges with ${error.currency} are not available at the moment.`
        : 'This exchange direction is not available at the moment.';
    case 'malformed-amount':
      return 'The amount must be a plain decimal number, such as 12.5.';
    case 'non-positive-amount':
      return 'The amount must be greater than zero.';
    case 'too-many-decimals':
      return `${error.currency} amounts have at most ${error.maxDecimals} decimal places.`;
    case 'stale-rate':
      return `The ${error.currency} rate is ${error.ageSeconds} s old (the limit is ${error.maxAgeSeconds} s); try again shortly.`;
    case 'amount-below-min':
      return `The minimum amount is ${error.limit} ${error.currency}.`;
    case 'amount-above-max':
      return `The maximum amount is ${error.limit} ${error.currency}.`;
    case 'invalid-input':
      return `The quote could not be computed: invalid ${error.field}.`;
  }
}
