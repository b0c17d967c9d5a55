-- Events still waiting in the outbox cannot be kept without it: the engine has them as
-- delivered, so they are not sent.
DELETE FROM bot.handled_events WHERE status IN ('queued', 'failed');

DROP INDEX bot.handled_events_due_idx;

ALTER TABLE bot.handled_events DROP CONSTRAINT handled_events_status_check;
ALTER TABLE bot.handled_events ADD CONSTRAINT handled_events_status_check
  CHECK (status IN ('sending', 'sent'));

ALTER TABLE bot.handled_events
  DROP COLUMN subject_id,
  DROP COLUMN attempts,
  DROP COLUMN next_attempt_at;
