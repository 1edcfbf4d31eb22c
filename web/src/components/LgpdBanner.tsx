import { Button, Intent } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { acceptLgpd, isLgpdAccepted } from '@/lib/session';
import { PdfViewer } from './PdfViewer';

export const LGPD_PDF_URL = '/brand-assets/lgpd.pdf';
/** The CSS variable holding the room the banner takes at the bottom of the page (#root's padding). */
export const LGPD_SPACE_VAR = '--lgpd-banner-space';

/**
 * Privacy-policy (LGPD) consent banner (spec §2): shown until accepted; the
 * acceptance is kept 30 days in a cookie and survives a session clear.
 */
export function LgpdBanner() {
  const [accepted, setAccepted] = useState(isLgpdAccepted);
  const [viewerOpen, setViewerOpen] = useState(false);
  const ref = useRef<HTMLElement | null>(null);

  // The banner floats over the bottom of the page: the page keeps that much room below its last
  // line (the login's footer, a form's last button) so nothing stays hidden under it.
  useEffect(() => {
    const root = document.documentElement.style;
    const el = ref.current;
    if (accepted || !el) {
      root.removeProperty(LGPD_SPACE_VAR);
      return;
    }
    const measure = () => root.setProperty(LGPD_SPACE_VAR, `${Math.ceil(el.getBoundingClientRect().height) + 32}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.removeProperty(LGPD_SPACE_VAR);
    };
  }, [accepted]);

  if (accepted) return null;
  return (
    <>
      <section
        ref={ref}
        className="lgpd-banner"
        role="region"
        aria-label="Política de privacidade"
        data-testid="lgpd-banner"
      >
        <p className="lgpd-banner-text">
          Utilizamos cookies e tratamos seus dados pessoais de acordo com a Lei Geral de Proteção de Dados (LGPD).
          Ao continuar navegando, você concorda com a nossa Política de Privacidade.
        </p>
        <div className="lgpd-banner-actions">
          <Button variant="outlined" text="Ler a Política de Privacidade" onClick={() => setViewerOpen(true)} />
          <Button
            intent={Intent.PRIMARY}
            text="Aceitar"
            data-testid="lgpd-accept"
            onClick={() => {
              acceptLgpd();
              setAccepted(true);
              setViewerOpen(false);
            }}
          />
        </div>
      </section>
      <PdfViewer
        isOpen={viewerOpen}
        title="Política de Privacidade"
        src={LGPD_PDF_URL}
        onClose={() => setViewerOpen(false)}
      />
    </>
  );
}
