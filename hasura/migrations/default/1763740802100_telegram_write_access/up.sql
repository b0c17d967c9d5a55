-- Who the bot may write to first (issue 22; docs/decisions/039-sandbox-looks-and-write-access.md).
--
-- Telegram refuses a bot's first message to someone who never started it (403). A person who
-- opens the mini-app from a link may never have; the mini-app then asks Telegram for write
-- access, and Telegram tells the bot it was granted with a write_access_allowed service message
-- in the private chat, which only Telegram can send. Signed launch data with
-- allows_write_to_pm: true (checked by the auth service) says the same. Keyed by the Telegram
-- user, not the account: the grant is Telegram's, whichever account the person signs in to.
CREATE TABLE bot.write_access (
  telegram_id bigint PRIMARY KEY CHECK (telegram_id > 0),
  -- How we learned it: the bot's service message, or the launch data at a sign-in.
  source      text NOT NULL CHECK (source IN ('write_access_allowed', 'init_data')),
  allowed_at  timestamptz NOT NULL DEFAULT now()
);
