/**
 * Lets non-React code (the HTTP client) send the user somewhere. The router
 * registers its navigate function at start; before that a full page load is used.
 */
type Navigate = (to: string) => void;

let current: Navigate = (to) => window.location.assign(to);

export function setNavigator(navigate: Navigate): () => void {
  const previous = current;
  current = navigate;
  return () => {
    current = previous;
  };
}

export function navigateTo(to: string): void {
  current(to);
}
