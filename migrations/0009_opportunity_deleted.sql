-- An opportunity whose workflow an operator cancelled in the Temporal UI
-- (docs/operations.md "Cancelling an opportunity"): kept, with its history, but
-- hidden from the lists, the export and the dashboard (spec §3 isDeleted).
ALTER TABLE opportunities ADD COLUMN is_deleted boolean NOT NULL DEFAULT false;
