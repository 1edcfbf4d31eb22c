import { useEffect, useState } from 'react';
import * as portalApi from '../api/portal';

/** The application version (GET /api/version). */
export function VersionText() {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    void portalApi.version().then((res) => {
      if (active && res.ok && typeof res.data?.version === 'string') setVersion(res.data.version);
    });
    return () => {
      active = false;
    };
  }, []);
  if (!version) return null;
  return (
    <span className="app-version" data-testid="app-version">
      Versão {version}
    </span>
  );
}
