import { useEffect, useState } from 'react';

import type { QuoteSide } from '@app/shared/exchange';

import { PairRateDocument, type PairRateQuery } from '../graphql/generated/anonymous.ts';
import { graphqlRequest, GraphqlRequestError } from '../graphql/request.ts';
import { browserEnv } from '../env/public-env.ts';

/**
 * How often the rate before typing is asked again. Rates are refreshed once a minute; half of
 * that keeps what a page shows at most about a minute and a half behind the rate an order gets.
 */
export const PAIR_RATE_REFRESH_MS = 30_000;

/** The accepted amounts of one side, in that side's currency (decimal strings). */
export interface SideLimits {
  side: QuoteSide;
  currency: string;
  min: string;
  max: string;
}

/** The `pairRate` action's answer as the clients use it. */
export interface PairRateInfo {
  from: string;
  to: string;
  /** The caller's rate (the public one for a visitor). */
  rate: string;
  publicRate: string;
  /** "You get X% more" (one decimal, rounded down), or null. */
  betterByPercent: string | null;
  limits: { send: SideLimits; receive: SideLimits };
}

export type PairRateState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; rate: PairRateInfo }
  | { status: 'error'; code: string };

export interface PairRateRequest {
  from: string;
  to: string;
  /**
   * Runs the request with the signed-in person's token (refreshed when due), so they get their
   * own rate; null or absent asks as a visitor.
   */
  withAccessToken?: (<T>(run: (token: string) => Promise<T>) => Promise<T>) | null;
  /** A bearer token to ask with when there is no `withAccessToken` (the mini-app's session). */
  token?: string | null;
}

function toInfo(answer: NonNullable<PairRateQuery['pairRate']>): PairRateInfo {
  return {
    from: answer.from,
    to: answer.to,
    rate: answer.rate,
    publicRate: answer.publicRate,
    betterByPercent: answer.betterByPercent,
    limits: {
      send: { ...answer.sendLimits, side: 'send' },
      receive: { ...answer.receiveLimits, side: 'receive' },
    },
  };
}

/**
 * The live rate of a pair before anything is typed: asked at once and on every pair or session
 * change, then every PAIR_RATE_REFRESH_MS while the page is visible. A refresh keeps the last
 * rate on screen (no flicker back to "loading"); the answer to an old pair is never shown.
 */
export function usePairRate({ from, to, withAccessToken, token }: PairRateRequest): PairRateState {
  const [state, setState] = useState<PairRateState>({ status: 'idle' });

  useEffect(() => {
    if (!from || !to || from === to) {
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'loading' });
    let controller = new AbortController();
    const ask = () => {
      controller.abort();
      const current = (controller = new AbortController());
      const request = (bearer: string | null) =>
        graphqlRequest(
          browserEnv().PUBLIC_GRAPHQL_URL,
          PairRateDocument,
          { from, to },
          { token: bearer, signal: current.signal },
        );
      (withAccessToken ? withAccessToken(request) : request(token ?? null)).then(
        ({ pairRate }) => {
          if (current.signal.aborted) return;
          setState(
            pairRate
              ? { status: 'ready', rate: toInfo(pairRate) }
              : { status: 'error', code: 'unexpected' },
          );
        },
        (error: unknown) => {
          if (current.signal.aborted) return;
          const code = GraphqlRequestError.is(error) ? (error.code ?? 'unexpected') : 'network';
          // A failed refresh keeps the rate shown; only a first failure is shown as one.
          setState((previous) =>
            previous.status === 'ready' && code === 'network'
              ? previous
              : { status: 'error', code },
          );
        },
      );
    };
    ask();
    const timer = setInterval(() => {
      if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      ask();
    }, PAIR_RATE_REFRESH_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [from, to, withAccessToken, token]);

  return state;
}
