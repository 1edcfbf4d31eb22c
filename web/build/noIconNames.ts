import type { Plugin } from 'vite';

/** Blueprint's table of every icon name (`@blueprintjs/icons`' iconNames.js). */
const ICON_NAMES = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconNames\.js$/;

/**
 * Replaces Blueprint's icon-name table with an empty one. The table lists the ~600 icons twice
 * (built at load time with change-case) and exists for icons given by name, which this app never
 * uses (src/lib/icons.ts: icons are components; the lint forbids names). Blueprint's Icon imports
 * it through its loader, so without this the login's first load carries it (about 8 KB compressed)
 * and every page load runs its loop. A name given anyway still draws nothing and logs an error
 * (Blueprint's "Unknown icon"), as src/lib/icons.ts's loader does: the browser tests fail on it.
 */
export function noIconNames(): Plugin {
  return {
    name: 'oportuna-no-icon-names',
    enforce: 'pre',
    load(id) {
      if (!ICON_NAMES.test(id.split('?')[0])) return null;
      return 'export const IconNames = {};\nexport const IconNamesSet = new Set();\n';
    },
  };
}
