import { describe, expect, it } from 'vitest';
import { actionLabel, attributeLabel, formatValue, historyType, HISTORY_TYPES } from './labels';

/** Every attribute the server writes to an opportunity's history (activities.creationChanges and the workflow). */
const SERVER_ATTRIBUTES = [
  'name',
  'cnpj',
  'fantasyName',
  'corporateName',
  'contact',
  'email',
  'phone',
  'probabilityClosing',
  'estimated',
  'status',
  'reason',
];

/** The opportunity fields of spec §3 a client may log through POST /history/create. */
const SPEC_FIELDS = [
  'network', 'justification', 'aplication', 'specification', 'homologated', 'haveCollector',
  'haveCollectorDescription', 'partner', 'partnerOwner', 'partnerName', 'opportunityType',
  'opportunityTypeStatus', 'conclusionDate', 'opportunityOrigin', 'seller', 'sellerSalesforceId',
  'approveDate', 'renovationDate', 'requestRenovationAt', 'lastVisitDate', 'projectStillInScope',
  'register', 'street', 'state', 'city', 'cep', 'country', 'additionalInformation', 'resale', 'acceptedTerm',
];

describe('history labels', () => {
  it('gives every attribute the server logs a Portuguese label', () => {
    expect(SERVER_ATTRIBUTES.map((a) => attributeLabel(a))).toEqual([
      'Nome da oportunidade',
      'CNPJ',
      'Nome fantasia',
      'Razão social',
      'Contato',
      'E-mail',
      'Telefone',
      'Probabilidade de fechamento',
      'Valor estimado',
      'Status',
      'Motivo',
    ]);
  });

  it('labels every opportunity field of the spec', () => {
    for (const field of SPEC_FIELDS) expect(attributeLabel(field), field).not.toBe(field);
  });

  it("names a user's or a reseller's name as such, not as an opportunity's", () => {
    expect(attributeLabel('name', 'Users')).toBe('Nome');
    expect(attributeLabel('name', 'Resales')).toBe('Nome');
    expect(attributeLabel('name', 'Opportunities')).toBe('Nome da oportunidade');
    expect(attributeLabel('email', 'Users')).toBe('E-mail');
  });

  it('names the deal desk\'s attributes (a reassignment, a conflict override)', () => {
    expect(attributeLabel('representative')).toBe('Representantes responsáveis');
    expect(attributeLabel('reassignReason')).toBe('Motivo da redistribuição');
    expect(attributeLabel('conflictOverrideReason')).toBe('Motivo para aprovar apesar do conflito');
  });

  it('shows an unknown attribute as it came', () => {
    expect(attributeLabel('somethingNew')).toBe('somethingNew');
  });

  it('names the actions', () => {
    expect(actionLabel('create')).toBe('Criação');
    expect(actionLabel('update')).toBe('Atualização');
  });
});

describe('formatValue', () => {
  it('shows statuses, probability bands and money the way the screens do', () => {
    expect(formatValue('status', 'analysis')).toBe('Em Análise');
    expect(formatValue('status', 'awaiting_renovation')).toBe('Aguardando Renovação');
    expect(formatValue('probabilityClosing', '25')).toBe('0% - 49%');
    expect(formatValue('probabilityClosing', '75')).toBe('71% - 99%');
    expect(formatValue('probabilityClosing', '33')).toBe('33');
    expect(formatValue('estimated', '58680.00')).toBe('R$ 58.680,00');
  });

  it('formats documents, phones, dates, origins and booleans', () => {
    expect(formatValue('cnpj', '33444522000106')).toBe('33.444.522/0001-06');
    expect(formatValue('phone', '11987650000')).toBe('(11) 98765-0000');
    expect(formatValue('cep', '01310100')).toBe('01310-100');
    expect(formatValue('lastVisitDate', '2026-11-02')).toBe('02/11/2026');
    expect(formatValue('opportunityOrigin', 'Trade Show')).toBe('Feira/Evento');
    expect(formatValue('homologated', 'true')).toBe('Sim');
    expect(formatValue('partner', 'false')).toBe('Não');
  });

  it('shows a dash for an empty value', () => {
    expect(formatValue('reason', '')).toBe('—');
    expect(formatValue('name', null)).toBe('—');
  });
});

describe('historyType', () => {
  it('reads the type of the route and defaults to Opportunities', () => {
    expect(historyType('Users')).toBe('Users');
    expect(historyType('resales')).toBe('Resales');
    expect(historyType(null)).toBe('Opportunities');
    expect(historyType('Bogus')).toBe('Opportunities');
    expect(HISTORY_TYPES.Resales.back).toBe('/Painel/Resales');
  });
});
