import { useEffect, useState } from 'react';

import type { QuoteResult, QuoteSide } from '@app/shared/exchange';

import { QuoteDocument } from '../graphql/generated/anonymous.ts';
import { graphqlRequest, GraphqlRequestError } from '../graphql/request.ts';
import { browserEnv } from '../env/public-env.ts';

/** Typing pauses this long before a quote is asked for. */
export const QUOTE_DEBOUNCE_MS = 350;

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; quote: QuoteResult }
  /** `details`: the refusal's extensions, e.g. the `limit` and `currency` of `amount-above-max`. */
  | { status: 'error'; code: string; details?: Record<string, unknown> };

export interface QuoteRequest {
  from: string;
  to: string;
  side: QuoteSide;
  /** A valid amount, or null when there is nothing to quote. */
  amount: string | null;
  token?: string | null;
  /**
   * Runs the request with the signed-in person's token (refreshed when due) instead of `token`,
   * so the quote carries their level and custom rates, as the pair's rate does (usePairRate).
   */
  withAccessToken?: (<T>(run: (token: string) => Promise<T>) => Promise<T>) | null;
}

/**
 * The live quote for what the person typed: asked after a pause, the previous request aborted,
 * so only the answer to the latest input is ever shown.
 */
export function useQuote({
  from,
  to,
  side,
  amount,
  token,
  withAccessToken,
}: QuoteRequest): QuoteState {
  const [state, setState] = useState<QuoteState>({ status: 'idle' });

  useEffect(() => {
    if (amount === null || from === to) {
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'loading' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const request = (bearer: string | null) =>
        graphqlRequest(
          browserEnv().PUBLIC_GRAPHQL_URL,
          QuoteDocument,
          { input: { from, to, side, amount } },
          { token: bearer, signal: controller.signal },
        );
      (withAccessToken ? withAccessToken(request) : request(token ?? null)).then(
        ({ quote }) =>
          setState(
            quote
              ? { status: 'ready', quote: quote as QuoteResult }
              : { status: 'error', code: 'unexpected' },
          ),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState(
            GraphqlRequestError.is(error)
              ? {
                  status: 'error',
                  code: error.code ?? 'unexpected',
                  details: error.errors[0]?.extensions ?? {},
                }
              : { status: 'error', code: 'network' },
          );
        },
      );
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [from, to, side, amount, token, withAccessToken]);

  return state;
}
