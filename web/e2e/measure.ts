import type { BrowserContext, CDPSession, Page } from '@playwright/test';

/** What one cold load of a page cost, as Chromium's network layer saw it. */
export interface LoadFigures {
  /** Bytes on the wire (headers + body, compressed as sent) of every response. */
  transferred: number;
  /** Bytes on the wire of the scripts and style sheets only. */
  jsCss: number;
  /** Decoded (uncompressed) size of the scripts and style sheets. */
  jsCssDecoded: number;
  requests: number;
  /** First contentful paint, ms after navigation start. */
  fcp: number;
}

/** The slow mobile link of the bench: 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
export const SLOW_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/**
 * Loads `url` in a fresh page (empty cache) and sums what the network
 * delivered until the page is idle. `slow` throttles the link first.
 */
export async function measureLoad(
  context: BrowserContext,
  url: string,
  ready: (page: Page) => Promise<void>,
  slow = false,
): Promise<LoadFigures> {
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (slow) await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);

  const kinds = new Map<string, string>();
  const decoded = new Map<string, number>();
  let transferred = 0;
  let jsCss = 0;
  let jsCssDecoded = 0;
  let requests = 0;
  cdp.on('Network.responseReceived', (e) => kinds.set(e.requestId, e.type));
  cdp.on('Network.dataReceived', (e) => decoded.set(e.requestId, (decoded.get(e.requestId) ?? 0) + e.dataLength));
  cdp.on('Network.loadingFinished', (e) => {
    requests++;
    transferred += e.encodedDataLength;
    const kind = kinds.get(e.requestId);
    if (kind === 'Script' || kind === 'Stylesheet') {
      jsCss += e.encodedDataLength;
      jsCssDecoded += decoded.get(e.requestId) ?? 0;
    }
  });

  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  await ready(page);
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const find = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
        const now = find();
        if (now !== undefined) return resolve(now);
        new PerformanceObserver(() => resolve(find() ?? -1)).observe({ type: 'paint', buffered: true });
      }),
  );
  await page.close();
  return { transferred, jsCss, jsCssDecoded, requests, fcp };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (t: number) => `${Math.round(t)} ms`;
