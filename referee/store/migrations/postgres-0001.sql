-- The referee's tables on PostgreSQL: what the SQLite file holds (referee/store/schema.py),
-- with the same keys. Integers that hold seqs, deadlines and times are bigint.

CREATE TABLE games (
    n bigint GENERATED ALWAYS AS IDENTITY,  -- the order games were stored in
    game_id text PRIMARY KEY,
    ruleset text NOT NULL,
    seed text NOT NULL,
    created_at text NOT NULL
);

CREATE TABLE events (
    game_id text NOT NULL,
    seq bigint NOT NULL,
    type text NOT NULL,
    actor text,
    visibility text,
    state_hash text,
    recorded_at text,
    prev_hash text,
    hash text NOT NULL,
    event text NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- the log is append-only: UPDATE, DELETE and TRUNCATE are refused, whoever asks
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

CREATE TABLE tokens (
    token_hash text PRIMARY KEY,
    game_id text NOT NULL,
    role text NOT NULL,
    active integer NOT NULL
);
CREATE INDEX tokens_game ON tokens (game_id, role);

CREATE TABLE idempotency (
    game_id text NOT NULL,
    role text NOT NULL,
    key text NOT NULL,
    request text NOT NULL,
    status integer NOT NULL,
    response text NOT NULL,
    PRIMARY KEY (game_id, role, key)
);

CREATE TABLE snapshots (
    game_id text NOT NULL,
    seq bigint NOT NULL,
    state text NOT NULL,
    state_hash text NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- derived from the log (each game's open round), rewritten with every append
CREATE TABLE rounds_due (
    game_id text PRIMARY KEY,
    round integer NOT NULL,
    deadline bigint,
    ready integer NOT NULL,
    paused integer NOT NULL,
    armed integer NOT NULL DEFAULT 0
);
CREATE INDEX rounds_due_deadline ON rounds_due (deadline);

-- derived from the log (each clocked game's running clocks)
CREATE TABLE clocks_due (
    game_id text NOT NULL,
    seat integer NOT NULL,
    deadline bigint NOT NULL,
    armed integer NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX clocks_due_deadline ON clocks_due (deadline);

-- notifications: not the log, never hashed
CREATE TABLE subscriptions (
    subscription_id text PRIMARY KEY,
    game_id text NOT NULL,
    role text NOT NULL,
    kind text NOT NULL,
    url text NOT NULL,
    secrets text NOT NULL,
    kinds text NOT NULL,
    reminders text NOT NULL,
    active integer NOT NULL,
    disabled_reason text,
    created_at bigint NOT NULL
);
CREATE INDEX subscriptions_game ON subscriptions (game_id);

CREATE TABLE deliveries (
    delivery_id text PRIMARY KEY,
    subscription_id text NOT NULL,
    game_id text NOT NULL,
    key text NOT NULL UNIQUE,
    seq bigint,
    kind text,
    notice text,
    status text NOT NULL,
    attempts integer NOT NULL,
    next_at bigint,
    answer text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);
CREATE INDEX deliveries_log ON deliveries (subscription_id, created_at);
CREATE INDEX deliveries_due ON deliveries (status, next_at);

-- logs a visitor uploaded to the replay page: scratch copies within byte budgets
CREATE TABLE uploads (
    n bigint GENERATED ALWAYS AS IDENTITY,
    digest text PRIMARY KEY,
    uploaded_at bigint NOT NULL,
    client text NOT NULL DEFAULT '',
    bytes bigint NOT NULL DEFAULT 0,
    log bytea NOT NULL
);
CREATE INDEX uploads_held ON uploads (uploaded_at, bytes);
CREATE INDEX uploads_client ON uploads (client, uploaded_at, bytes);

CREATE TABLE disk_probe (pad bytea);

CREATE TABLE posts (
    game_id text PRIMARY KEY,
    since bigint NOT NULL,
    marked_at bigint NOT NULL
);

-- derived from the log (GameForked events): which game each fork continues
CREATE TABLE forks (
    game_id text PRIMARY KEY,
    forked_from text NOT NULL,
    at bigint NOT NULL
);

-- secrets every machine serving the store shares (the pages' session key): never in a log
CREATE TABLE secrets (
    name text PRIMARY KEY,
    value text NOT NULL
);
