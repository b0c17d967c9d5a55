-- The Telegram bot's own bookkeeping, in a schema the engine does not track (no GraphQL role
-- can read it), like the auth service's.
CREATE SCHEMA bot;

-- Event-trigger deliveries the bot has acted on. The engine delivers at least once (a lost
-- answer or a restart sends an event again). A delivery claims its event ('sending'), sends,
-- then marks it 'sent'; a repeat of a sent event sends nothing, a repeat while another
-- delivery is sending waits for the engine's next retry, and a failed send removes the claim.
-- No transaction stays open while Telegram is called (the embedded database runs one at a time).
CREATE TABLE bot.handled_events (
  event_id     uuid PRIMARY KEY,
  trigger_name text NOT NULL CHECK (char_length(trigger_name) <= 100),
  status       text NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'sent')),
  claimed_at   timestamptz NOT NULL DEFAULT now(),
  handled_at   timestamptz
);
CREATE INDEX handled_events_claimed_at_idx ON bot.handled_events (claimed_at);
