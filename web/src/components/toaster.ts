import { OverlayToaster, Position, type Toaster, type ToastProps } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

/** The app's one toaster (Blueprint OverlayToaster), created on first use. */
export function showToast(props: ToastProps): void {
  if (!toaster) {
    toaster = OverlayToaster.create({ position: Position.TOP, maxToasts: 3 });
  }
  void toaster.then((t) => t.show({ timeout: 5000, ...props }));
}

/** Dismisses every toast shown (tests start each case from none). */
export async function clearToasts(): Promise<void> {
  if (toaster) (await toaster).clear();
}
