/*
 * The Telegram bot's texts in every locale, for the bot service only (a module of its own, so
 * no browser bundle carries them). Russian and Ukrainian are typed against English.
 */
import { bot as en } from './catalogs/en/bot.ts';
import { bot as ru } from './catalogs/ru/bot.ts';
import { bot as ua } from './catalogs/ua/bot.ts';
import type { Locale } from './locales.ts';
import type { Catalog } from './types.ts';

export type BotMessages = Catalog<typeof en>;

export const botCatalogs: Record<Locale, BotMessages> = { en, ru, ua };
