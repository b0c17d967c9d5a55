-- The bot's outbox (docs/decisions/014-telegram-bot.md). An event the bot acts on is recorded
-- here ('queued', with the row it is about) and acknowledged to the engine at once; the bot's
-- sender claims it ('sending'), sends at Telegram's pace, and marks it 'sent'. A failed send is
-- queued again after a pause, and 'failed' after its last attempt. Before, a delivery held the
-- engine's request until Telegram took the message, so a burst of staff-chat messages (20 a
-- minute per group) outlasted the trigger's retries.
ALTER TABLE bot.handled_events
  ADD COLUMN subject_id uuid,
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();

ALTER TABLE bot.handled_events DROP CONSTRAINT handled_events_status_check;
ALTER TABLE bot.handled_events ADD CONSTRAINT handled_events_status_check
  CHECK (status IN ('queued', 'sending', 'sent', 'failed'));

-- What the sender looks for: queued events that are due, and claims gone stale.
CREATE INDEX handled_events_due_idx ON bot.handled_events (next_attempt_at)
  WHERE status IN ('queued', 'sending');
