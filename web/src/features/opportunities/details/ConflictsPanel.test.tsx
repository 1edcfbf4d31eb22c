import { describe, expect, it } from 'vitest';
import { overridesOf } from '../api/useConflictOverrides';
import { daysInAnalysis, KIND_LABELS } from './ConflictsPanel';

// The panel itself is exercised through the details screen (OpportunityDetailsPage.test.tsx).
describe('ConflictsPanel rules', () => {
  it('counts the days in analysis until the approval, or until now while undecided', () => {
    expect(daysInAnalysis('2026-04-20T12:00:00Z', '2026-04-24T15:00:00Z')).toBe(4);
    expect(daysInAnalysis('2026-04-20T12:00:00Z', null, new Date('2026-04-30T11:00:00Z'))).toBe(9);
    expect(daysInAnalysis('2026-04-20T12:00:00Z', null, new Date('2026-04-19T00:00:00Z'))).toBe(0);
  });

  it('names each kind of conflict', () => {
    expect(KIND_LABELS).toEqual({ cnpj: 'Mesmo CNPJ', cnpj_root: 'Mesma raiz de CNPJ', name: 'Mesma razão social' });
  });

  it('reads the overrides out of the history, on either side', () => {
    const page = {
      result: [
        { date: '2026-05-03T12:00:00Z', modifications: [{ attribute: 'status', newValue: 'approved' }] },
        {
          date: '2026-05-02T12:00:00Z',
          modifications: [
            { attribute: 'conflictOverriddenBy', newValue: 'b-2' },
            { attribute: 'conflictOverrideReason', newValue: 'Cliente pediu.' },
          ],
        },
        { date: '2026-05-01T12:00:00Z', modifications: null },
      ],
    };
    expect(overridesOf(page)).toEqual([{ reason: 'Cliente pediu.', by: 'b-2', others: undefined, at: '2026-05-02T12:00:00Z' }]);
    expect(overridesOf(null)).toEqual([]);
  });
});
