-- The renewal dialog's answers (spec §4 "Solicitar renovação"): whether the
-- proposal was sent, whether the product was homologated, and the next step,
-- kept with the request for the representative who decides it.
ALTER TABLE opportunities
    ADD COLUMN proposal_sent       text NOT NULL DEFAULT '',
    ADD COLUMN product_homologated text NOT NULL DEFAULT '',
    ADD COLUMN next_step           text NOT NULL DEFAULT '';
