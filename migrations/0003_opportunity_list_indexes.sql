-- Indexes measured with `make bench` on 1,000,000 opportunities:
-- CNPJ prefix search (LIKE 'digits%') needs pattern ops; sorting by value and the
-- dashboard's per-month counts need their own keys.
DROP INDEX IF EXISTS opportunities_brand_cnpj_idx;
CREATE INDEX opportunities_brand_cnpj_idx ON opportunities (brand, cnpj text_pattern_ops);
CREATE INDEX opportunities_brand_estimated_idx ON opportunities (brand, estimated, created_at DESC);
CREATE INDEX opportunities_brand_status_approve_idx ON opportunities (brand, status, approve_date);
CREATE INDEX opportunities_brand_status_updated_idx ON opportunities (brand, status, updated_at);
