import type { ReactNode } from 'react';
import { EmailText } from './EmailText';

export interface DetailRow {
  key: string;
  label: string;
  value: string;
}

/**
 * A record's fields as a definition list (components/partners.css): '—' for an
 * empty one, an e-mail as EmailText; each value's test id is '<testIdPrefix>-<key>'.
 */
export function DetailsGrid({ rows, testIdPrefix, hidden, children }: { rows: readonly DetailRow[]; testIdPrefix: string; hidden?: boolean; children?: ReactNode }) {
  return (
    <dl className="details-grid" hidden={hidden}>
      {rows.map((row) => (
        <div key={row.key}>
          <dt>{row.label}</dt>
          <dd data-testid={`${testIdPrefix}-${row.key}`}>{row.key === 'email' && row.value ? <EmailText value={row.value} /> : row.value || '—'}</dd>
        </div>
      ))}
      {children}
    </dl>
  );
}
