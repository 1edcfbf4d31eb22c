import { Classes, OverlayToaster, Position, type Toaster, type ToastProps } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

/** The app's one toaster (Blueprint OverlayToaster), created on first use. */
export function showToast(props: ToastProps): void {
  if (!toaster) {
    toaster = OverlayToaster.create({ position: Position.TOP, maxToasts: 3 });
  }
  void toaster.then((t) => t.show({ timeout: 5000, ...props }));
}

/**
 * Tests only: dismisses every toast and takes the toaster off the page, so each case starts
 * from none (a toast shown late by the case before lands on the old, detached toaster).
 */
export async function clearToasts(): Promise<void> {
  if (!toaster) return;
  const old = toaster;
  toaster = null;
  (await old).clear();
  document.querySelectorAll(`.${Classes.TOAST_CONTAINER}`).forEach((el) => el.remove());
}
