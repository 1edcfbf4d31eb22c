import { Button, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { acceptLgpd, isLgpdAccepted } from '../lib/session';
import { PdfViewer } from './PdfViewer';

export const LGPD_PDF_URL = '/brand-assets/lgpd.pdf';

/**
 * Privacy-policy (LGPD) consent banner (spec §2): shown until accepted; the
 * acceptance is kept 30 days in a cookie and survives a session clear.
 */
export function LgpdBanner() {
  const [accepted, setAccepted] = useState(isLgpdAccepted);
  const [viewerOpen, setViewerOpen] = useState(false);

  if (accepted) return null;
  return (
    <>
      <section className="lgpd-banner" role="region" aria-label="Política de privacidade" data-testid="lgpd-banner">
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
