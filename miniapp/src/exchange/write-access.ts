import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { currentLaunch } from '../sign-in.ts';
import { noticeInTelegram, requestChatWriteAccess } from '../telegram/sdk.ts';

/*
 * Notifications for someone who opened the mini-app from a link and never pressed Start in the
 * bot (decision 039): Telegram refuses the bot's first message to them, so an order's news
 * would not reach the chat. After their first order, the app asks Telegram for write access;
 * if they allow it, Telegram tells the bot (write_access_allowed), which records it. If they
 * say no, a short note says notifications are off and how to turn them on. Asked once per
 * person on this device: a "no" is not asked again at every order.
 */

const askedKey = (userId: string) => `tg-write-access-asked:${userId}`;

function alreadyAsked(userId: string): boolean {
  try {
    return localStorage.getItem(askedKey(userId)) !== null;
  } catch {
    return false;
  }
}

function markAsked(userId: string): void {
  try {
    localStorage.setItem(askedKey(userId), new Date().toISOString());
  } catch {
    // Storage refused (a private mode): at worst the person is asked again after an order.
  }
}

/**
 * Returns what to call once an order is created: it asks for write access when the launch
 * says the bot may not write to this person yet. It runs on after the form has gone (the
 * order screen opens meanwhile) and never throws.
 */
export function useWriteAccessAfterOrder(): () => void {
  const { t } = useTranslation('miniapp');
  return useCallback(() => {
    const launch = currentLaunch();
    const userId = launch?.userId;
    if (!launch || launch.allowsWriteToPm || userId === undefined || alreadyAsked(userId)) return;
    markAsked(userId);
    void (async () => {
      try {
        const answer = await requestChatWriteAccess();
        if (answer === 'denied')
          await noticeInTelegram(t('chatNotifications.off'), t('chatNotifications.ok'));
      } catch {
        // Another request under way, or the client gave up: the order is made either way.
      }
    })();
  }, [t]);
}
