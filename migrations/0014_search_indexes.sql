-- The global search (GET /api/search, api/search.go) matches a text inside names
-- and e-mails (ILIKE '%text%') and a CNPJ by its prefix (LIKE 'text%'). The list
-- filters already have trigram indexes on the opportunity's name and trade name
-- and a pattern index on its CNPJ (0002, 0003); these cover the other columns
-- the search reads, so each kind is a bitmap OR of index scans
-- (api/search_test.go TestSearchQueriesUseIndexes). The list's e-mail filter
-- uses opportunities_email_trgm_idx too.
CREATE INDEX opportunities_corporate_trgm_idx ON opportunities USING gin (corporate_name gin_trgm_ops);
CREATE INDEX opportunities_email_trgm_idx ON opportunities USING gin (email gin_trgm_ops);

CREATE INDEX resales_corporate_trgm_idx ON resales USING gin (corporate_name gin_trgm_ops);
CREATE INDEX resales_fantasy_trgm_idx ON resales USING gin (fantasy_name gin_trgm_ops);
CREATE INDEX resales_email_trgm_idx ON resales USING gin (email gin_trgm_ops);
CREATE INDEX resales_brand_cnpj_pattern_idx ON resales (brand, cnpj text_pattern_ops);

CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops);
CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops);
