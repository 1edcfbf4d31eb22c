-- When a seller was deleted (deactivated) by its reseller: 'Desfazer' restores
-- it within api.SellerUndoWindow of this instant (PATCH /api/seller/restore/{id}).
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
