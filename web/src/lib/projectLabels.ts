/**
 * The labels of an opportunity's project questions (spec §3), as the registration
 * form asks them and a history names their changes (features/history/labels.ts).
 */
export const PROJECT_LABELS = {
  aplication: 'Aplicação',
  specification: 'Especificação',
  homologated: 'Produto homologado?',
  haveCollector: 'Possui equipamento similar?',
  haveCollectorDescription: 'Equipamento similar',
  partner: 'Possui parceiro de software?',
  partnerOwner: 'Proprietário do software',
  partnerName: 'Nome do parceiro',
  opportunityType: 'Tipo de órgão',
  opportunityTypeStatus: 'Situação do órgão público',
  conclusionDate: 'Data de conclusão',
  opportunityOrigin: 'Origem da oportunidade',
} as const;
