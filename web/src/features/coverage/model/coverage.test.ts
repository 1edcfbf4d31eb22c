import { describe, expect, it } from 'vitest';
import { REGIONS, changed, describeChange, resaleLabel, statesLabel, toggleRegion, toggleState } from './coverage';

describe('coverage model', () => {
  it('groups the 27 UFs in five regions, each once', () => {
    const all = REGIONS.flatMap((r) => r.states);
    expect(all).toHaveLength(27);
    expect(new Set(all).size).toBe(27);
  });

  it('toggles a UF and a whole region, keeping the list sorted', () => {
    expect(toggleState(['SP'], 'MG')).toEqual(['MG', 'SP']);
    expect(toggleState(['MG', 'SP'], 'SP')).toEqual(['MG']);
    const south = REGIONS.find((r) => r.name === 'Sul')!.states;
    expect(toggleRegion(['SP', 'PR'], south)).toEqual(['PR', 'RS', 'SC', 'SP']);
    expect(toggleRegion(['PR', 'RS', 'SC', 'SP'], south)).toEqual(['SP']);
  });

  it('labels a coverage, an account and a change in pt-BR', () => {
    expect(statesLabel([])).toBe('Nenhuma UF');
    expect(statesLabel(REGIONS.flatMap((r) => r.states))).toBe('Todas as UFs');
    expect(statesLabel(['MG', 'SP'])).toBe('MG, SP');
    expect(resaleLabel({ id: 'r1', name: 'Revenda Boa Ltda', cnpj: '11222333000181' })).toBe('Revenda Boa Ltda (11.222.333/0001-81)');
    expect(resaleLabel({ id: 'abcdef0123', name: '', cnpj: '' })).toBe('Revenda abcdef01 (não aprovada)');
    expect(describeChange({ attribute: 'coverageStates', oldValue: '', newValue: 'MG,SP' }, (id) => id)).toBe('UFs: nenhuma → MG, SP');
    expect(describeChange({ attribute: 'coverageResales', oldValue: 'r1', newValue: '' }, () => 'Revenda Boa')).toBe(
      'Revendas: Revenda Boa → nenhuma',
    );
  });

  it('tells whether an edit changed the coverage', () => {
    const e = { id: 'u', name: 'R', email: 'r@x', states: ['SP', 'MG'], resales: [{ id: 'r1', name: 'A', cnpj: '' }] };
    expect(changed(e, ['MG', 'SP'], ['r1'])).toBe(false);
    expect(changed(e, ['MG'], ['r1'])).toBe(true);
    expect(changed(e, ['MG', 'SP'], [])).toBe(true);
  });
});
