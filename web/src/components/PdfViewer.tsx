import { AnchorButton, DialogBody, DialogFooter } from '@blueprintjs/core';
import { Dialog } from './Dialog';

export interface PdfViewerProps {
  isOpen: boolean;
  title: string;
  src: string;
  onClose: () => void;
}

/** A PDF document in a dialog (privacy policy, opportunity guidelines). */
export function PdfViewer({ isOpen, title, src, onClose }: PdfViewerProps) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={title} className="modal pdf-viewer">
      <DialogBody useOverflowScrollContainer={false}>
        <iframe className="pdf-viewer-frame" src={src} title={title} data-testid="pdf-viewer-frame" />
      </DialogBody>
      <DialogFooter
        actions={<AnchorButton href={src} target="_blank" rel="noopener noreferrer" text="Abrir em nova aba" />}
      />
    </Dialog>
  );
}
