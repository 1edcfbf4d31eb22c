export const MAIN_CONTENT_ID = 'main-content';
export const SKIP_LINK_TEXT = 'Pular para o conteúdo';

/**
 * The first stop of the keyboard on every page: 'Pular para o conteúdo' moves
 * the focus past the menu and the header to the page's main content (the
 * element with id `main-content`, which takes the focus with tabIndex -1).
 * Hidden until focused.
 */
export function SkipLink() {
  return (
    <a
      className="skip-link"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(e) => {
        const main = document.getElementById(MAIN_CONTENT_ID);
        if (!main) return;
        e.preventDefault();
        main.focus();
        main.scrollIntoView?.({ block: 'start' });
      }}
    >
      {SKIP_LINK_TEXT}
    </a>
  );
}
