/** Data several tests share. */

/** The CNPJ lookup's answer for 11.222.333/0001-81 (GET /api/cnpj/11222333000181). */
export const CNPJ_FOUND = {
  nome_fantasia: 'Boa Compra',
  razao_social: 'Supermercados Boa Compra Ltda',
  rua: 'Avenida Central, 100',
  cep: '01310100',
  cidade: 'Campinas',
  estado: 'SP',
};

/** The same company as the forms' company fields. */
export const CNPJ_FOUND_FIELDS = {
  fantasyName: 'Boa Compra',
  corporateName: 'Supermercados Boa Compra Ltda',
  street: 'Avenida Central, 100',
  cep: '01310-100',
  city: 'Campinas',
  state: 'SP',
};
