import { brasiliaParts, formatDate } from '@/lib/format';
import './validity.css';

/** An opportunity lives 90 days from its creation while in analysis, or from its approval (spec §4, §9). */
export const VALIDITY_DAYS = 90;
/** From this many days before its end, the cue turns to a warning (the renewal window, docs/opportunity-lifecycle.md). */
export const EXPIRY_WARNING_DAYS = 15;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The day of an instant in Brasília's calendar, counted in days since the epoch. */
export function brasiliaDay(at: Date): number {
  const p = brasiliaParts(at);
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) / DAY_MS;
}

export interface ValiditySubject {
  status: string;
  validUntil: string | null;
  createdAt: string;
}

/**
 * When an opportunity's validity ends: its `validUntil` once approved (also in
 * renovation and once expired), else 90 days after its creation (in analysis,
 * or expired there). None for a refused one or one waiting for a renewal
 * decision (its workflow waits without a deadline).
 */
export function validityEnd(o: ValiditySubject): Date | null {
  const read = (iso: string | null) => {
    const d = iso ? new Date(iso) : null;
    return d && Number.isFinite(d.getTime()) ? d : null;
  };
  const created = read(o.createdAt);
  const fromCreation = created ? new Date(created.getTime() + VALIDITY_DAYS * DAY_MS) : null;
  switch (o.status) {
    case 'analysis':
      return fromCreation;
    case 'approved':
    case 'renovation':
      return read(o.validUntil);
    case 'expired':
      return read(o.validUntil) ?? fromCreation;
    default:
      return null;
  }
}

export interface Validity {
  /** 'expira em 12 dias', 'expira amanhã', 'expira hoje', 'expirou hoje', 'expirou ontem', 'expirou há 3 dias'. */
  text: string;
  /** Calendar days (Brasília) from today to the end; negative once past. */
  days: number;
  expired: boolean;
  /** 'danger' once expired, 'warning' within EXPIRY_WARNING_DAYS, else 'none'. */
  intent: 'none' | 'warning' | 'danger';
  /** dd/mm/yyyy of the end. */
  date: string;
}

/** The validity cue of an opportunity in Brasília's calendar; null when it has none. */
export function validity(o: ValiditySubject, now: number = Date.now()): Validity | null {
  const end = validityEnd(o);
  if (!end) return null;
  const days = brasiliaDay(end) - brasiliaDay(new Date(now));
  const expired = o.status === 'expired' || end.getTime() <= now;
  let text: string;
  if (expired) {
    const ago = Math.max(0, -days);
    text = ago === 0 ? 'expirou hoje' : ago === 1 ? 'expirou ontem' : `expirou há ${ago} dias`;
  } else {
    text = days <= 0 ? 'expira hoje' : days === 1 ? 'expira amanhã' : `expira em ${days} dias`;
  }
  const intent = expired ? 'danger' : days <= EXPIRY_WARNING_DAYS ? 'warning' : 'none';
  return { text, days, expired, intent, date: formatDate(end.toISOString()) };
}

/** The cue as a short line (its date as the tooltip); nothing when the opportunity has none. */
export function ValidityCue({ subject, now }: { subject: ValiditySubject; now?: number }) {
  const v = validity(subject, now);
  if (!v) return null;
  return (
    <span
      className={`validity-cue is-${v.intent}`}
      title={`${v.expired ? 'Expirou em' : 'Válida até'} ${v.date}`}
      data-testid="validity-cue"
      data-intent={v.intent}
    >
      {v.text}
    </span>
  );
}
