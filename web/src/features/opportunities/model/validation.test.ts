import { describe, expect, it } from 'vitest';
import { MSG_CONCLUSION_DATE, MSG_INVALID_CEP, MSG_INVALID_CNPJ, MSG_INVALID_EMAIL, MSG_INVALID_PHONE, MSG_NAME_REQUIRED, MSG_REQUIRED, MSG_VISIT_DATE } from './messages';
import { approvalNameError, emptyRenewalForm, validateRenewal } from './renewal';
import { buildCreatePayload, buildRenewalPayload } from './payload';
import { canConfirmReason } from '@/components/ReasonDialog';
import { cepError, conclusionDateError, emailError, phoneError, validateOpportunity, visitDateError } from './validation';
import { emptyLine, emptyOpportunityForm, estimatedTotalCents, sellerLabel, sellerRequired, type OpportunityForm, type ProductLineForm } from './form';
import { isValidCnpj } from '@/lib/cnpj';
import { isValidEmail } from '@/lib/format';
import { parseDate, todayInBrasilia } from '@/lib/dates';
import { parsePriceCents } from '@/lib/money';
import { CNPJ_FOUND_FIELDS } from '@/test/fixtures';

// 2026-05-10 15:00 in Brasília.
const NOW = new Date('2026-05-10T18:00:00Z');

function line(kind: ProductLineForm['kind'], partNumber: string, amount: string, price: string, description = 'Item'): ProductLineForm {
  return { ...emptyLine(kind), partNumber, description, amount, price };
}

function validForm(): OpportunityForm {
  return {
    ...emptyOpportunityForm(),
    cnpj: '11.222.333/0001-81',
    ...CNPJ_FOUND_FIELDS,
    contact: 'Carla Nogueira',
    phone: '(11) 98765-4321',
    email: ' compras@cliente.com.br ',
    network: 'Não',
    aplication: 'Controle de estoque',
    specification: 'Leitura 2D',
    homologated: 'true',
    haveCollector: 'false',
    partner: 'false',
    opportunityType: 'private',
    conclusionDate: '10/08/26',
    opportunityOrigin: 'Partner',
    lines: [line('product', 'CT-40', '12', '4890,00'), line('accessory', 'BAT', '2', '100,5'), line('competitor', 'X1', '1', '9999')],
    seller: 'Vanessa Lima',
    sellerSalesforceId: 'u-1',
    acceptedTerm: true,
  };
}

const ctx = { company: 'nordata', cnpjLookupOk: true, now: NOW };

describe('dates', () => {
  it('reads dd/mm/yy, dd-mm-yy, dd/mm/yyyy and yyyy-mm-dd', () => {
    expect(parseDate('07/03/26')).toEqual({ y: 2026, m: 3, d: 7 });
    expect(parseDate('07-03-26')).toEqual({ y: 2026, m: 3, d: 7 });
    expect(parseDate('07/03/2026')).toEqual({ y: 2026, m: 3, d: 7 });
    expect(parseDate('2026-03-07')).toEqual({ y: 2026, m: 3, d: 7 });
    expect(parseDate('01/01/70')).toEqual({ y: 1970, m: 1, d: 1 });
  });

  it('refuses zero days or months, impossible days and other shapes', () => {
    for (const bad of ['00/03/26', '07/00/26', '31/02/26', '29/02/25', '7/3/26', '07/03', '07.03.26', '2026/03/07', '']) {
      expect(parseDate(bad), bad).toBeNull();
    }
    expect(parseDate('29/02/28')).toEqual({ y: 2028, m: 2, d: 29 });
  });

  it("takes today's date in Brasília", () => {
    expect(todayInBrasilia(new Date('2026-05-11T02:59:00Z'))).toEqual({ y: 2026, m: 5, d: 10 });
    expect(todayInBrasilia(new Date('2026-05-11T03:00:00Z'))).toEqual({ y: 2026, m: 5, d: 11 });
  });

  it('wants a conclusion date strictly in the future', () => {
    expect(conclusionDateError('', NOW)).toBe(MSG_REQUIRED);
    expect(conclusionDateError('11/05/26', NOW)).toBeNull();
    expect(conclusionDateError('2026-05-11', NOW)).toBeNull();
    expect(conclusionDateError('10/05/26', NOW)).toBe(MSG_CONCLUSION_DATE);
    expect(conclusionDateError('09/05/26', NOW)).toBe(MSG_CONCLUSION_DATE);
    expect(conclusionDateError('32/05/26', NOW)).toBe(MSG_CONCLUSION_DATE);
    expect(conclusionDateError('11/05', NOW)).toBe(MSG_CONCLUSION_DATE);
  });

  it('wants a last visit date today or before', () => {
    expect(visitDateError('', NOW)).toBe(MSG_REQUIRED);
    expect(visitDateError('10/05/26', NOW)).toBeNull();
    expect(visitDateError('01/01/26', NOW)).toBeNull();
    expect(visitDateError('11/05/26', NOW)).toBe(MSG_VISIT_DATE);
    expect(visitDateError('00/05/26', NOW)).toBe(MSG_VISIT_DATE);
    expect(visitDateError('10/13/26', NOW)).toBe(MSG_VISIT_DATE);
  });
});

describe('single fields', () => {
  it('phone: 10 or 11 digits, never all zeros', () => {
    expect(phoneError('')).toBe(MSG_REQUIRED);
    expect(phoneError('(11) 3333-4444')).toBeNull();
    expect(phoneError('(11) 98765-4321')).toBeNull();
    expect(phoneError('(00) 00000-0000')).toBe(MSG_INVALID_PHONE);
    expect(phoneError('(00) 0000-0000')).toBe(MSG_INVALID_PHONE);
    expect(phoneError('(11) 9876')).toBe(MSG_INVALID_PHONE);
  });

  it('CEP: 8 digits, or 7 with the leading zero lost, never all zeros', () => {
    expect(cepError('')).toBe(MSG_REQUIRED);
    expect(cepError('01310-100')).toBeNull();
    expect(cepError('1310100')).toBeNull();
    expect(cepError('30130010')).toBeNull();
    expect(cepError('00000-000')).toBe(MSG_INVALID_CEP);
    expect(cepError('123456')).toBe(MSG_INVALID_CEP);
    expect(cepError('123456789')).toBe(MSG_INVALID_CEP);
    expect(cepError('0131O-100')).toBe(MSG_INVALID_CEP);
  });

  it('e-mail: trimmed, with a 2 to 4 letter top-level domain', () => {
    expect(isValidEmail('  ana@empresa.com.br ')).toBe(true);
    expect(isValidEmail('ana@empresa.info')).toBe(true);
    expect(isValidEmail('ana@empresa.c')).toBe(false);
    expect(isValidEmail('ana@empresa.store1')).toBe(false);
    expect(isValidEmail('ana@empresa.museum')).toBe(false);
    expect(isValidEmail('ana empresa@x.com')).toBe(false);
    expect(emailError(' ')).toBe(MSG_REQUIRED);
    expect(emailError('x@')).toBe(MSG_INVALID_EMAIL);
  });

  it('CNPJ check digits', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('00.000.000/0000-00')).toBe(false);
    expect(isValidCnpj('11.222.333/0001')).toBe(false);
  });

  it('price: comma or point, at most 2 decimals, in centavos', () => {
    expect(parsePriceCents('1234,56')).toBe(123456);
    expect(parsePriceCents('1.234,56')).toBe(123456);
    expect(parsePriceCents('1234.5')).toBe(123450);
    expect(parsePriceCents('R$ 10')).toBe(1000);
    expect(parsePriceCents(',5')).toBe(50);
    expect(parsePriceCents('')).toBeNull();
    expect(parsePriceCents('1,234')).toBeNull();
    expect(parsePriceCents('abc')).toBeNull();
    expect(parsePriceCents('1 234,56')).toBe(123456);
  });

  it('refuses a main price that cannot be read with its message, never as 1,23', () => {
    const form = validForm();
    const main = { ...form.lines[0], price: '1.23,45' };
    const v = validateOpportunity({ ...form, lines: [main] }, ctx);
    expect(v.valid).toBe(false);
    expect(v.lineErrors[main.key]?.price).toBe('Separador de milhar fora do lugar. Digite o valor como 1.234,56.');
    expect(v.missing).toEqual(['Preço do produto']);
    const ok = validateOpportunity({ ...form, lines: [{ ...main, amount: '2', price: '1.234,56' }] }, ctx);
    expect(ok.valid).toBe(true);
    expect(estimatedTotalCents([{ ...main, amount: '2', price: '1.234,56' }])).toBe(246912);
  });

  it("refuses an accessory's price that cannot be read instead of counting it as zero", () => {
    const form = validForm();
    const acc = line('accessory', 'CAB', '1', '9,999');
    const v = validateOpportunity({ ...form, lines: [form.lines[0], acc] }, ctx);
    expect(v.valid).toBe(false);
    expect(v.lineErrors[acc.key]?.price).toBe('Use no máximo duas casas decimais, como em 1.234,56.');
    expect(v.missing).toEqual(['Preço (Acessório 1)']);
  });

  it('seller: required and labelled Vendedor, except for yep (Vendedor Prime, optional)', () => {
    expect(sellerRequired('nordata')).toBe(true);
    expect(sellerLabel('nordata')).toBe('Vendedor');
    expect(sellerRequired('yep')).toBe(false);
    expect(sellerLabel('yep')).toBe('Vendedor Prime');
  });
});

describe('estimated total', () => {
  it('sums amount × price of the lines sent, without competitors', () => {
    const lines = [
      line('product', 'CT-40', '12', '4890'),
      line('accessory', 'BAT', '3', '100,50'),
      line('competitor', 'X1', '100', '9999,99'),
    ];
    expect(estimatedTotalCents(lines)).toBe(12 * 489000 + 3 * 10050);
  });

  it('ignores lines without a part number or a description, and unreadable values', () => {
    const blank = { ...emptyLine('product'), amount: '5', price: '10' };
    expect(estimatedTotalCents([blank])).toBe(0);
    expect(estimatedTotalCents([line('product', 'A', '', '10')])).toBe(0);
    expect(estimatedTotalCents([line('product', 'A', '2', '')])).toBe(0);
    expect(estimatedTotalCents([line('product', 'A', '3', '0,10'), line('product', 'B', '1', '0,20')])).toBe(50);
  });
});

describe('validateOpportunity', () => {
  it('accepts a complete form', () => {
    const v = validateOpportunity(validForm(), ctx);
    expect(v.missing).toEqual([]);
    expect(v.valid).toBe(true);
  });

  it('does not ask for the read-only company fields before the lookup; lists a field the lookup left blank', () => {
    const before = validateOpportunity({ ...validForm(), corporateName: '', street: '', cep: '', city: '', state: '' }, {
      ...ctx,
      cnpjLookupOk: false,
    });
    expect(before.missing).toEqual(['CNPJ']);
    expect(Object.keys(before.errors)).toEqual(['cnpj']);
    const after = validateOpportunity({ ...validForm(), street: '' }, ctx);
    expect(after.missing).toEqual(['Endereço']);
  });

  it('lists every missing field of an empty form by its label, in screen order', () => {
    const v = validateOpportunity(emptyOpportunityForm(), { ...ctx, cnpjLookupOk: false });
    expect(v.valid).toBe(false);
    expect(v.missing).toEqual([
      'CNPJ',
      'Nome do contato',
      'Telefone',
      'Email do cliente',
      'Faz parte de um grupo/rede?',
      'Aplicação',
      'Especificação',
      'Produto homologado?',
      'Possui equipamento similar?',
      'Possui parceiro de software?',
      'Tipo de órgão',
      'Data de conclusão',
      'Origem da oportunidade',
      'Part number do produto',
      'Descrição do produto',
      'Quantidade do produto',
      'Preço do produto',
      'Vendedor',
      'Aceite dos termos',
    ]);
    expect(v.errors.contact).toBe(MSG_REQUIRED);
    expect(v.errors.cnpj).toBe(MSG_REQUIRED);
  });

  it('does not require a seller for yep', () => {
    const form = { ...validForm(), seller: '', sellerSalesforceId: '' };
    expect(validateOpportunity(form, ctx).missing).toEqual(['Vendedor']);
    expect(validateOpportunity(form, { ...ctx, company: 'yep' }).valid).toBe(true);
  });

  it('wants the CNPJ lookup to have succeeded and the check digits to hold', () => {
    expect(validateOpportunity(validForm(), { ...ctx, cnpjLookupOk: false }).errors.cnpj).toBe(MSG_INVALID_CNPJ);
    const v = validateOpportunity({ ...validForm(), cnpj: '11.222.333/0001-82' }, ctx);
    expect(v.errors.cnpj).toBe(MSG_INVALID_CNPJ);
    expect(v.missing).toEqual(['CNPJ']);
  });

  it("reports an all-zero phone as 'Numero inválido' and as missing; a bad e-mail lists 'Email do cliente'", () => {
    const v = validateOpportunity({ ...validForm(), phone: '(00) 00000-0000', email: 'compras@cliente' }, ctx);
    expect(v.errors.phone).toBe(MSG_INVALID_PHONE);
    expect(v.errors.email).toBe(MSG_INVALID_EMAIL);
    expect(v.missing).toEqual(['Telefone', 'Email do cliente']);
  });

  it('asks nothing of the accessory and competitor lines (spec §5 names only the main line)', () => {
    const form = validForm();
    const others = [line('accessory', 'BAT', '', ''), line('accessory', 'CAB', '1', '9,99'), line('competitor', 'X1', '3', '')];
    const v = validateOpportunity({ ...form, lines: [form.lines[0], ...others] }, ctx);
    expect(v.valid).toBe(true);
    expect(v.missing).toEqual([]);
    expect(v.lineErrors).toEqual({});
  });

  it('requires the partner owner when there is a partner, and its name for partners’ software', () => {
    let v = validateOpportunity({ ...validForm(), partner: 'true' }, ctx);
    expect(v.missing).toEqual(['Proprietário do software']);
    v = validateOpportunity({ ...validForm(), partner: 'true', partnerOwner: 'Software de Parceiros' }, ctx);
    expect(v.missing).toEqual(['Nome do parceiro']);
    v = validateOpportunity({ ...validForm(), partner: 'true', partnerOwner: 'Software da Revenda' }, ctx);
    expect(v.valid).toBe(true);
    // 'not known' needs no owner
    v = validateOpportunity({ ...validForm(), partner: 'false', partnerOwner: '' }, ctx);
    expect(v.valid).toBe(true);
  });

  it('requires the public agency status for a public agency only', () => {
    expect(validateOpportunity({ ...validForm(), opportunityType: 'public' }, ctx).missing).toEqual([
      'Situação do órgão público',
    ]);
    expect(
      validateOpportunity({ ...validForm(), opportunityType: 'public', opportunityTypeStatus: 'Em licitação' }, ctx).valid,
    ).toBe(true);
    expect(validateOpportunity({ ...validForm(), opportunityType: '' }, ctx).missing).toEqual(['Tipo de órgão']);
  });

  it('wants a future conclusion date', () => {
    const v = validateOpportunity({ ...validForm(), conclusionDate: '10/05/26' }, ctx);
    expect(v.errors.conclusionDate).toBe(MSG_CONCLUSION_DATE);
    expect(v.missing).toEqual(['Data de conclusão']);
  });

  it('checks the main product line: part number, description, quantity > 0, price not 0', () => {
    const form = validForm();
    const main = { ...form.lines[0], amount: '0', price: '0,00' };
    const v = validateOpportunity({ ...form, lines: [main, ...form.lines.slice(1)] }, ctx);
    expect(v.missing).toEqual(['Quantidade do produto', 'Preço do produto']);
    expect(v.lineErrors[main.key]).toEqual({ amount: MSG_REQUIRED, price: MSG_REQUIRED });
    // an accessory or a competitor does not stand for the main product
    const onlyOthers = validateOpportunity({ ...form, lines: form.lines.slice(1) }, ctx);
    expect(onlyOthers.missing).toEqual([
      'Part number do produto',
      'Descrição do produto',
      'Quantidade do produto',
      'Preço do produto',
    ]);
  });

  it('applies the rules to the first filled main line', () => {
    const form = validForm();
    const blank = emptyLine('product');
    expect(validateOpportunity({ ...form, lines: [blank, ...form.lines] }, ctx).valid).toBe(true);
  });

  it('wants the terms accepted', () => {
    expect(validateOpportunity({ ...validForm(), acceptedTerm: false }, ctx).missing).toEqual(['Aceite dos termos']);
  });
});

describe('buildCreatePayload', () => {
  it('builds the spec payload: digits, booleans, ISO date, comma prices, groups, Brasil', () => {
    const form = { ...validForm(), lines: [...validForm().lines, emptyLine('accessory')] };
    const p = buildCreatePayload(form, 'nordata');
    expect(p).toMatchObject({
      name: '',
      cnpj: '11222333000181',
      phone: 11987654321,
      email: 'compras@cliente.com.br',
      cep: '01310100',
      country: 'Brasil',
      acceptedTerm: 'true',
      probabilityClosing: 25,
      company: 'nordata',
      opportunityOrigin: 'Partner',
      seller: 'Vanessa Lima',
      sellerSalesforceId: 'u-1',
      fantasyName: 'Boa Compra',
    });
    expect(p.projects).toEqual([
      expect.objectContaining({
        homologated: true,
        haveCollector: false,
        partner: false,
        partnerOwner: '',
        opportunityType: 'private',
        conclusionDate: '2026-08-10',
        opportunityOrigin: 'Partner',
      }),
    ]);
    expect(p.products).toEqual([
      { partNumber: 'CT-40', description: 'Item', amount: 12, price: 4890, accessory: false, competition: false },
      { partNumber: 'BAT', description: 'Item', amount: 2, price: 100.5, accessory: true, competition: false },
      { partNumber: 'X1', description: 'Item', amount: 1, price: 9999, accessory: false, competition: true },
    ]);
    expect(JSON.stringify(p.products[1].price)).toBe('100.5');
  });

  it("sends a blank trade name as 'N/C'", () => {
    expect(buildCreatePayload({ ...validForm(), fantasyName: ' ' }, 'nordata').fantasyName).toBe('N/C');
  });
});

describe('renewal, refusal and approval', () => {
  it('renewal: reason, probability, still in scope and a past visit date are required', () => {
    expect(validateRenewal(emptyRenewalForm(), NOW)).toEqual({
      reason: MSG_REQUIRED,
      probabilityClosing: MSG_REQUIRED,
      projectStillInScope: MSG_REQUIRED,
      lastVisitDate: MSG_REQUIRED,
    });
    const ok = {
      ...emptyRenewalForm(),
      reason: 'Cliente retomou',
      probabilityClosing: 75,
      projectStillInScope: 'Não' as const,
      lastVisitDate: '10/05/26',
    };
    expect(validateRenewal(ok, NOW)).toEqual({});
    expect(validateRenewal({ ...ok, lastVisitDate: '11/05/26' }, NOW)).toEqual({ lastVisitDate: MSG_VISIT_DATE });
    expect(validateRenewal({ ...ok, probabilityClosing: 30 }, NOW)).toEqual({ probabilityClosing: MSG_REQUIRED });
    expect(buildRenewalPayload({ ...ok, proposalSent: 'Sim', nextStep: ' Visita técnica ' })).toEqual({
      reason: 'Cliente retomou',
      probabilityClosing: 75,
      projectStillInScope: 'Não',
      lastVisitDate: '10/05/26',
      proposalSent: 'Sim',
      nextStep: 'Visita técnica',
    });
  });

  it('refusal: confirm only with a reason', () => {
    expect(canConfirmReason('')).toBe(false);
    expect(canConfirmReason('   ')).toBe(false);
    expect(canConfirmReason('Cliente já atendido')).toBe(true);
  });

  it('approval: a name is required', () => {
    expect(approvalNameError(' ')).toBe(MSG_NAME_REQUIRED);
    expect(approvalNameError('Oportunidade Boa Compra')).toBeNull();
  });
});
