import { Card, H1 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { LOGO_HEIGHT, LOGO_WIDTH, useBrand } from '@/lib/brand';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';
import './publicPage.css';

export interface PublicPageProps {
  /** The page's name: its classes '<name>-page', '<name>-card' and '<name>-title'. */
  name: string;
  title: string;
  /** The card's content, under the title. */
  children: ReactNode;
  /** What stands outside the card (its modals). */
  outside?: ReactNode;
}

/**
 * A page reached without a session (sign-up, contact): the skip link, then one
 * card, the main region, with the brand's logo and the page's title.
 */
export function PublicPage({ name, title, children, outside }: PublicPageProps) {
  const brand = useBrand();
  return (
    <div className={`public-page ${name}-page`}>
      <SkipLink />
      <Card className={`public-card ${name}-card`} elevation={2} id={MAIN_CONTENT_ID} tabIndex={-1} role="main">
        <img className="brand-logo auth-logo" src={brand.logo} alt={brand.name} width={LOGO_WIDTH} height={LOGO_HEIGHT} data-testid="brand-logo" />
        <H1 className={`page-title public-title ${name}-title`} data-testid="page-title">
          {title}
        </H1>
        {children}
      </Card>
      {outside}
    </div>
  );
}
