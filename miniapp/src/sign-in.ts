import { createStore, useStore } from 'zustand';

import { toFailure } from '@app/client/auth/session-types.ts';

import {
  discardStoredSession,
  recordSessionOwner,
  session,
  setSessionLostHandler,
  storedSessionOwner,
} from './session.ts';
import { haptic, type TelegramLaunch } from './telegram/sdk.ts';

/*
 * Silent sign-in: the raw initData goes to the auth service's /telegram-auth, which checks
 * Telegram's signature and finds or creates the account. A reload in the same launch keeps the
 * session it has (the launch data is minutes old by then, and the auth service refuses old
 * data), but only when it was issued for the launch's Telegram user: another user's launch in
 * the same tab (Telegram Web) discards it and signs in afresh. A dead session (refresh refused)
 * signs in again the same way.
 */

export type SignInState =
  | { status: 'pending' }
  | { status: 'signed-in' }
  /** `retryAfter`: seconds the auth service asked to wait (a rate limit's Retry-After). */
  | { status: 'failed'; code: string; retryAfter?: number | undefined };

export const signInStore = createStore<SignInState>(() => ({ status: 'pending' }));

let current: { launch: TelegramLaunch; referralCode: string | undefined } | undefined;
let running: Promise<void> | undefined;

async function run(reuseStored: boolean): Promise<void> {
  if (!current) return;
  signInStore.setState({ status: 'pending' });
  const owner = current.launch.userId;
  if (reuseStored) {
    if (owner !== undefined && storedSessionOwner() === owner) {
      await session.getState().init();
      if (session.getState().isLoggedIn) {
        signInStore.setState({ status: 'signed-in' });
        return;
      }
    } else {
      // Someone else's session (or one of unknown owner): never shown to this launch's user.
      discardStoredSession();
    }
  }
  try {
    await session.getState().telegramAuth(current.launch.initData, current.referralCode);
    recordSessionOwner(owner);
    signInStore.setState({ status: 'signed-in' });
  } catch (error) {
    haptic.error();
    const { code, retryAfter } = toFailure(error);
    signInStore.setState({ status: 'failed', code, retryAfter });
  }
}

/** Signs in (again); concurrent calls share one attempt. */
export function signIn(reuseStored = false): Promise<void> {
  running ??= run(reuseStored).finally(() => {
    running = undefined;
  });
  return running;
}

/** Starts the launch's sign-in; the deep link's referral code goes with it. */
export function startSignIn(launch: TelegramLaunch, referralCode: string | undefined): void {
  current = { launch, referralCode };
  setSessionLostHandler(() => void signIn());
  void signIn(true);
}

export const useSignIn = (): SignInState => useStore(signInStore);

/** What the current launch says of its person (the launch sign-in started with). */
export const currentLaunch = (): TelegramLaunch | undefined => current?.launch;
