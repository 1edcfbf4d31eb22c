-- Conflicts (docs/deal-desk.md, "Conflicts"): registrations of one customer at
-- a brand are found by the CNPJ's root (its first 8 characters: head office
-- and branches, alphanumeric roots too) and by the company name normalised
-- (opportunity.NameKey: accents, case, punctuation and legal suffixes
-- dropped). The registration writes both keys (computed in Go); this
-- migration fills them for the rows already stored with conflict_name_key,
-- the SQL twin of opportunity.NameKey (opportunity/conflict_db_test.go keeps
-- them equal).

-- conflict_name_key: combining marks dropped; accented Latin letters to
-- their base letter; every run of anything but an ASCII letter or digit to
-- one space; lower case; trimmed; the trailing legal suffixes dropped (never
-- the first word).
CREATE FUNCTION conflict_name_key(s text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT regexp_replace(
    btrim(lower(regexp_replace(
        translate(regexp_replace(s, '[\u0300-\u036f]', '', 'g'),
            'ÁÀÂÃÄÅáàâãäåÇçÉÈÊËéèêëÍÌÎÏíìîïÑñÓÒÔÕÖóòôõöÚÙÛÜúùûüÝýÿ',
            'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'),
        '[^A-Za-z0-9]+', ' ', 'g')), ' '),
    '( (ltda|limitada|sa|s a|me|mei|epp|eireli))+$', '')
$$;

ALTER TABLE opportunities ADD COLUMN cnpj_root text NOT NULL DEFAULT '';
ALTER TABLE opportunities ADD COLUMN name_key text NOT NULL DEFAULT '';

UPDATE opportunities SET cnpj_root = left(cnpj, 8), name_key = conflict_name_key(corporate_name);

-- The conflict lookups (store/conflicts.sql) read only open registrations
-- (analysis, approved, renovation, awaiting_renovation) that are not deleted.
CREATE INDEX opportunities_conflict_root_idx ON opportunities (brand, cnpj_root, created_at)
    WHERE status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT is_deleted;
CREATE INDEX opportunities_conflict_name_idx ON opportunities (brand, name_key)
    WHERE status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') AND NOT is_deleted AND name_key <> '';
