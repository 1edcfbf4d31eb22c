import { Fragment } from 'react';

/**
 * An e-mail address that, when it must wrap, breaks after the '@' or before a
 * '.' (compras@ / cliente.com.br), never inside a word ('cliente0.com. / br').
 * The breaks are <wbr>: nothing is added to the text a user copies.
 */
export function EmailText({ value }: { value: string }) {
  const parts = value.split(/(@|\.)/);
  return (
    <span className="email-text">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part === '.' && i > 0 && <wbr />}
          {part}
          {part === '@' && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
