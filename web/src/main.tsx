import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './App';
import { BrandContext, applyBrand, loadBrand } from './lib/brand';
import { setCompany } from './lib/http';
import { createQueryClient } from './lib/queryClient';
import { loadIconsOnlyAsComponents } from './lib/icons';
import { endSessionOfPreviousVisit } from './lib/session';
import './styles/brand.css';

async function start() {
  loadIconsOnlyAsComponents();
  const brand = await loadBrand();
  applyBrand(brand);
  setCompany(brand.slug);

  // keep_connection 'false': a session does not outlive the visit it started in.
  if (endSessionOfPreviousVisit() && window.location.pathname !== '/') {
    window.history.replaceState(null, '', '/');
  }

  const queryClient = createQueryClient();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrandContext.Provider value={brand}>
          <BlueprintProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </BlueprintProvider>
        </BrandContext.Provider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
