import { Card } from '@blueprintjs/core';
import { Link, Outlet } from 'react-router';
import { LOGO_HEIGHT, LOGO_WIDTH, useBrand } from '@/lib/brand';
import { Carousel } from './login/Carousel';
import { VersionText } from './login/VersionText';
import { MAIN_CONTENT_ID, SkipLink } from '@/components/SkipLink';

/**
 * Public pages of the login family (Login, recovery, reset): the brand, the
 * form card, and the image carousel beside it.
 */
export function AuthLayout() {
  const brand = useBrand();
  return (
    <div className="auth-page">
      <SkipLink />
      <main className="auth-form-column" id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Card className="auth-card" elevation={2}>
          <img className="brand-logo auth-logo" src={brand.logo} alt={brand.name} width={LOGO_WIDTH} height={LOGO_HEIGHT} data-testid="brand-logo" />
          <Outlet />
        </Card>
        <footer className="auth-footer">
          <Link to="/Contact" data-testid="contact-link">
            Fale conosco
          </Link>
          <VersionText />
        </footer>
      </main>
      <aside className="auth-carousel-column" aria-label="Destaques">
        <Carousel />
      </aside>
    </div>
  );
}
