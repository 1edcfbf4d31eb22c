import './tables.css';

/**
 * A table cell's text on one line, cut with an ellipsis when the column is too
 * narrow; its whole value is the tooltip (components/tables.css `.cell-clip`).
 */
export function CellText({ text, testId, className }: { text: string; testId?: string; className?: string }) {
  return (
    <span className={className ? `cell-clip ${className}` : 'cell-clip'} title={text} data-testid={testId}>
      {text}
    </span>
  );
}
