import { endSession, getCompany, refreshSession } from './http';
import { getToken } from './session';

/**
 * Files the API builds (the .xlsx exports): fetched as binary with the
 * session's headers, then saved. Apart from http.ts so the login page's
 * first load does not carry it.
 */
/** A file the API answered (an .xlsx export), or why not (the API's pt-BR message when it gave one). */
export type DownloadResult = { ok: true; blob: Blob; fileName: string } | { ok: false; status: number; message?: string };

const WORKBOOK_ACCEPT = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json';

async function fetchBinary(url: string, token: string | undefined): Promise<Response | null> {
  const headers: Record<string, string> = { Accept: WORKBOOK_ACCEPT };
  const company = getCompany();
  if (company) headers.company = company;
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(url, { headers, credentials: 'same-origin' });
  } catch {
    return null;
  }
}

/** The file name of a Content-Disposition header (RFC 6266, filename* too), or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (!m) return fallback;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/**
 * GETs a workbook the API builds (url: the whole address, query included). A
 * binary answer, so fetched here rather than through `request` (which parses
 * JSON); the session rules are the same: a 401 refreshes the token pair once
 * and retries, a second 401 ends the session.
 */
export async function downloadWorkbook(url: string, fallbackName: string): Promise<DownloadResult> {
  const sent = getToken();
  let res = await fetchBinary(url, sent);
  if (res && res.status === 401) {
    // A pair another tab rotated meanwhile is taken as it is (refreshSession(seen)).
    if (!(await refreshSession(sent))) {
      endSession();
      return { ok: false, status: 401 };
    }
    res = await fetchBinary(url, getToken());
    if (res && res.status === 401) {
      endSession();
      return { ok: false, status: 401 };
    }
  }
  if (!res) return { ok: false, status: 500 };
  if (!res.ok) {
    let message: string | undefined;
    try {
      const body = (await res.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      message = undefined;
    }
    return { ok: false, status: res.status >= 500 ? 500 : res.status, message };
  }
  return { ok: true, blob: await res.blob(), fileName: fileNameOf(res.headers.get('Content-Disposition'), fallbackName) };
}

/** Saves a blob as a file (an object URL clicked through a temporary link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 1000);
}
