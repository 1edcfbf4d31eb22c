-- The outcome of each decision sent with an Idempotency-Key, so that the same
-- call repeated (a client retrying after a lost answer) answers its first
-- outcome and changes nothing, whatever workflow run, worker or API replica it
-- meets. Written by activities.Apply in the same statement as the decision's
-- read-model and history write; read by the API before it sends the decision;
-- deleted by the pruning job (auth.Prune) a day after it was written.
CREATE TABLE idempotency_keys (
    user_id        uuid NOT NULL,
    key            text NOT NULL,   -- a hash of the caller and the client's key (never the key itself)
    opportunity_id uuid NOT NULL,
    action         text NOT NULL,   -- approve, disapprove, edit, request-renewal, renewal-approve, renewal-refuse
    status         integer NOT NULL,
    message        text NOT NULL,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
