/**
 * Messages of the opportunity forms (spec §5 "New opportunity form", "Renewal
 * modal", "Rejection", "Approval"), the same as the server's
 * (opportunity/create.go, opportunity/validate.go).
 */

export const MSG_REQUIRED = '*Campo Obrigatório';
export const MSG_INVALID_PHONE = 'Numero inválido';
/**
 * Under a filled e-mail that is not valid. The spec only says 'Email do cliente'
 * goes to the missing-fields list (it does); it names no text for the field
 * itself, and a field marked in red needs one (docs/web.md).
 */
export const MSG_INVALID_EMAIL = 'Email inválido';
export const MSG_INVALID_CNPJ = 'CNPJ inválido! Por favor digite um CNPJ válido!';
export const MSG_CONCLUSION_DATE = 'Data de conclusão deve ser uma data futura';
export const MSG_VISIT_DATE = 'Data de visita deve ser uma data passada ou a atual!';
export const MSG_NAME_REQUIRED = 'Por favor, digite um nome para a oportunidade!!';
export const MSG_INVALID_CEP = 'CEP inválido';
