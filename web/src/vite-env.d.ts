/// <reference types="vite/client" />

interface Window {
  /** Injected by the Go server before </head> (see docs/api.md). */
  __OPORTUNA_BRAND__?: import('./lib/brand').Brand;
}
