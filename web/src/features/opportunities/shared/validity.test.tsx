import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ValidityCue, validity, validityEnd } from './validity';

/** An instant on Brasília's clock (UTC−3). */
const brt = (iso: string) => new Date(`${iso}-03:00`).getTime();

describe('validity cue', () => {
  it('counts calendar days in Brasília, not hours and not the browser zone (tests run in UTC+14)', () => {
    // 23:30 on 10/03 in Brasília (already 11/03 in UTC and UTC+14); valid until 08:00 on 22/03.
    const now = brt('2026-03-10T23:30:00');
    const v = validity({ status: 'approved', validUntil: '2026-03-22T11:00:00Z', createdAt: '2026-01-01T12:00:00Z' }, now);
    expect(v).toMatchObject({ text: 'expira em 12 dias', days: 12, expired: false, intent: 'warning', date: '22/03/2026' });
    // Ends 00:30 on 11/03 in Brasília: tomorrow, although an hour away.
    expect(validity({ status: 'approved', validUntil: '2026-03-11T03:30:00Z', createdAt: '' }, now)?.text).toBe('expira amanhã');
    expect(validity({ status: 'renovation', validUntil: '2026-03-10T23:50:00-03:00', createdAt: '' }, now)?.text).toBe('expira hoje');
  });

  it('says how long ago an expired one ended', () => {
    const now = brt('2026-03-10T09:00:00');
    const ended = (iso: string) => validity({ status: 'expired', validUntil: iso, createdAt: '' }, now);
    expect(ended('2026-03-07T20:00:00-03:00')).toMatchObject({ text: 'expirou há 3 dias', expired: true, intent: 'danger' });
    expect(ended('2026-03-09T23:59:00-03:00')?.text).toBe('expirou ontem');
    expect(ended('2026-03-10T00:10:00-03:00')?.text).toBe('expirou hoje');
  });

  it('gives an opportunity in analysis 90 days from its creation; none to a refused one or one awaiting a renewal decision', () => {
    const created = '2026-01-05T15:00:00Z';
    expect(validityEnd({ status: 'analysis', validUntil: null, createdAt: created })?.toISOString()).toBe('2026-04-05T15:00:00.000Z');
    const v = validity({ status: 'analysis', validUntil: null, createdAt: created }, brt('2026-01-05T12:00:00'));
    expect(v).toMatchObject({ text: 'expira em 90 dias', intent: 'none' });
    expect(validity({ status: 'expired', validUntil: null, createdAt: created }, brt('2026-04-08T12:00:00'))?.text).toBe('expirou há 3 dias');
    expect(validity({ status: 'disapproved', validUntil: null, createdAt: created })).toBeNull();
    expect(validity({ status: 'awaiting_renovation', validUntil: '2026-03-01T12:00:00Z', createdAt: created })).toBeNull();
    expect(validity({ status: 'approved', validUntil: null, createdAt: created })).toBeNull();
  });

  it('shows the cue with its date as the tooltip', () => {
    render(
      <ValidityCue
        subject={{ status: 'approved', validUntil: '2026-06-30T15:00:00Z', createdAt: '' }}
        now={brt('2026-03-10T12:00:00')}
      />,
    );
    const cue = screen.getByTestId('validity-cue');
    expect(cue).toHaveTextContent('expira em 112 dias');
    expect(cue).toHaveAttribute('title', 'Válida até 30/06/2026');
    expect(cue).toHaveAttribute('data-intent', 'none');
  });
});
