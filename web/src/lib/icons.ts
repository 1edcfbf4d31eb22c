import { Icons, type IconName, type IconPaths } from '@blueprintjs/icons';

/**
 * Blueprint icons are used as components (`import { EyeOpenIcon } from
 * '@blueprintjs/icons'`): each carries its own SVG paths and the bundle holds
 * only those. An icon given by name (`icon="add"`) is drawn by Blueprint's
 * loader, whose default fetches the paths of all ~600 icons (two chunks of
 * 300 KB). This loader replaces it and knows no paths at all: a name draws an
 * empty icon and says so in the console, so the mistake shows in development
 * and in the browser tests (which fail on a console error) instead of costing
 * every user 200 KB. The lint forbids string icon names too (eslint.config.js).
 */
export function noPathsLoader(name: IconName): Promise<IconPaths> {
  console.error(`[oportuna] icon "${name}" given by name: import its component from @blueprintjs/icons instead`);
  return Promise.resolve([]);
}

/** Installs the loader; main.tsx calls it before the first render. */
export function loadIconsOnlyAsComponents(): void {
  Icons.setLoaderOptions({ loader: noPathsLoader });
}
