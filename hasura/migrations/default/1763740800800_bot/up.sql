-- The Telegram bot's own bookkeeping, in a schema the engine does not track (no GraphQL role
-- can read it), like the auth service's.
CREATE SCHEMA bot;

-- Event-trigger deliveries the bot has acted on. The engine delivers at least once (a lost
-- answer or a restart sends an event again); a row here makes the repeat send nothing.
CREATE TABLE bot.handled_events (
  event_id     uuid PRIMARY KEY,
  trigger_name text NOT NULL CHECK (char_length(trigger_name) <= 100),
  handled_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX handled_events_handled_at_idx ON bot.handled_events (handled_at);
