import { Callout, Card, H1, H2 } from '@blueprintjs/core';
import { Link } from 'react-router';
import { useBrand } from '../../lib/brand';

export interface PublicPlaceholderProps {
  title: string;
  children?: React.ReactNode;
}

/** A public page still to be built (Registration, Contact). */
export function PublicPlaceholder({ title, children }: PublicPlaceholderProps) {
  const brand = useBrand();
  return (
    <div className="public-page">
      <Card className="public-card" elevation={2}>
        <img className="brand-logo auth-logo" src={brand.logo} alt={brand.name} data-testid="brand-logo" />
        <H1 className="page-title" data-testid="page-title">
          {title}
        </H1>
        <Callout intent="primary" className="public-note">
          Esta página está em construção.
        </Callout>
        {children}
        <p className="auth-back">
          <Link to="/">Voltar ao login</Link>
        </p>
      </Card>
    </div>
  );
}

export function RegistrationPage() {
  return <PublicPlaceholder title="Cadastre sua revenda" />;
}

/** Contact page: the form comes later; service hours and the brand's contacts already show. */
export function ContactPage() {
  const brand = useBrand();
  return (
    <PublicPlaceholder title="Contato">
      <section className="contact-info" aria-label="Atendimento">
        <H2 className="contact-heading">Horário de atendimento</H2>
        <ul>
          <li>Segunda a quinta-feira: 08:00 às 18:00</li>
          <li>Sexta-feira: 08:00 às 17:00</li>
        </ul>
        {brand.contact && (
          <>
            <H2 className="contact-heading">Telefones</H2>
            <ul>
              {brand.contact.phones.map((phone) => (
                <li key={phone}>{phone}</li>
              ))}
            </ul>
            <H2 className="contact-heading">Endereço</H2>
            <p>{brand.contact.address}</p>
          </>
        )}
      </section>
    </PublicPlaceholder>
  );
}
