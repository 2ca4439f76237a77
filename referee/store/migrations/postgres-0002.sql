-- the bot moves games ask for (docs/bots.md, "Where bots play"): derived from the log,
-- rewritten with every append of a game that has had bots; the sweeper sends again a
-- move whose task was lost
CREATE TABLE bots_due (
    game_id text NOT NULL,
    seat integer NOT NULL,
    version bigint NOT NULL,
    sent_at bigint NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX bots_due_sent ON bots_due (sent_at);
