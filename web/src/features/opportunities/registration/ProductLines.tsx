import { Button, FormGroup, H3, InputGroup, Intent } from '@blueprintjs/core';
import { PlusIcon, TrashIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { formatBRL } from '@/lib/format';
import { MoneyInput } from '@/components/MoneyInput';
import { QUANTITY_MASK } from '@/lib/masks';
import { parseAmount, type LineKind, type LinePart, type ProductLineForm } from '../model/form';
import { parsePriceCents, priceError } from '@/lib/money';
import { MaskedInput } from '@/components/MaskedInput';
import { LINE_GROUP_TITLES } from '../shared/options';
import { FormField } from '@/components/FormField';

const ADD_LABELS: Record<LineKind, string> = {
  product: 'Adicionar produto',
  accessory: 'Adicionar acessório',
  competitor: 'Adicionar concorrente',
};

export interface ProductLinesProps {
  kind: LineKind;
  /** The lines of this group, in order. */
  lines: ProductLineForm[];
  errors: Record<string, Partial<Record<LinePart, string>>>;
  disabled?: boolean;
  onChange: (line: ProductLineForm) => void;
  onAdd: () => void;
  onRemove: (key: string) => void;
}

/**
 * One group of repeatable product lines (spec §3 "Product line"): 'Produto'
 * (at least one line), 'Acessório' or 'Concorrente'. Each line: part number,
 * description, quantity and price (comma accepted).
 */
export function ProductLines({ kind, lines, errors, disabled, onChange, onAdd, onRemove }: ProductLinesProps) {
  const title = LINE_GROUP_TITLES[kind];
  const minimum = kind === 'product' ? 1 : 0;
  /** Lines whose price was left: a price that cannot be read says so at once. */
  const [left, setLeft] = useState<Record<string, boolean>>({});
  return (
    <div className="op-lines" data-testid={`lines-${kind}`} role="group" aria-label={title}>
      <div className="op-lines-header">
        <H3 className="bp6-heading">{title}</H3>
        <Button
          variant="outlined"
          icon={<PlusIcon />}
          text={ADD_LABELS[kind]}
          onClick={onAdd}
          disabled={disabled}
          data-testid={`add-${kind}`}
        />
      </div>
      {lines.length === 0 && <p className="bp6-text-muted">Nenhum item informado.</p>}
      {lines.map((line, index) => {
        const e = errors[line.key] ?? {};
        const id = (part: string) => `${line.key}-${part}`;
        const n = index + 1;
        const subtotal =
          line.kind !== 'competitor' && (parseAmount(line.amount) ?? 0) > 0 && (parsePriceCents(line.price) ?? 0) > 0
            ? formatBRL(((parseAmount(line.amount) ?? 0) * (parsePriceCents(line.price) ?? 0)) / 100)
            : '';
        const priceMessage = e.price ?? ((left[line.key] && priceError(line.price)) || undefined);
        /** A part typed as text (the quantity, digits only), named '<title> <n>: <label in lower case>'. */
        const textField = (part: 'partNumber' | 'description' | 'amount', idPart: string, label: string, className?: string) => {
          const input = {
            id: id(idPart),
            value: line[part],
            disabled,
            intent: e[part] ? Intent.DANGER : Intent.NONE,
            onValueChange: (v: string) => onChange({ ...line, [part]: v }),
            'aria-label': `${title} ${n}: ${label.toLowerCase()}`,
            'data-testid': `line-${kind}-${index}-${part}`,
          };
          return (
            <FormField className={className} label={label} labelFor={input.id} intent={input.intent} helperText={e[part]}>
              {part === 'amount' ? <MaskedInput {...input} mask={QUANTITY_MASK} inputMode="numeric" /> : <InputGroup {...input} />}
            </FormField>
          );
        };
        return (
          <div className="op-line" key={line.key} data-testid={`line-${kind}-${index}`}>
            {textField('partNumber', 'pn', 'Part number', 'op-line-pn')}
            {textField('description', 'description', 'Descrição', 'op-line-description')}
            {textField('amount', 'amount', 'Quantidade')}
            <FormGroup
              label="Preço (R$)"
              labelFor={id('price')}
              intent={priceMessage ? Intent.DANGER : Intent.NONE}
              helperText={
                priceMessage || subtotal ? (
                  <span id={id('price-help')}>{priceMessage ?? `Subtotal ${subtotal}`}</span>
                ) : undefined
              }
            >
              <MoneyInput
                id={id('price')}
                value={line.price}
                disabled={disabled}
                error={priceMessage}
                describedBy={priceMessage || subtotal ? id('price-help') : undefined}
                onValueChange={(v) => onChange({ ...line, price: v })}
                onBlur={() => setLeft((l) => (l[line.key] ? l : { ...l, [line.key]: true }))}
                aria-label={`${title} ${n}: preço`}
                data-testid={`line-${kind}-${index}-price`}
              />
            </FormGroup>
            <div className="op-line-remove">
              <Button
                variant="minimal"
                intent={Intent.DANGER}
                icon={<TrashIcon />}
                aria-label={`Remover ${title.toLowerCase()} ${n}`}
                disabled={disabled || lines.length <= minimum}
                onClick={() => onRemove(line.key)}
                data-testid={`remove-${kind}-${index}`}
              />
            </div>
          </div>
        );
      })}
    </div>
  );
}
