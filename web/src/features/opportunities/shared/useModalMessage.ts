import { useCallback, useState } from 'react';

/**
 * The message of a modal that keeps its text while the dialog's closing
 * transition runs (a cleared message would flash an empty modal).
 */
export function useModalMessage() {
  const [state, setState] = useState<{ open: boolean; message: string }>({ open: false, message: '' });
  const show = useCallback((message: string) => setState({ open: true, message }), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return { open: state.open, message: state.message, show, close };
}
