import type { Plugin, Rule } from 'postcss';

/**
 * Selectors of Blueprint's style sheet that no screen of the portal can match:
 *  - the dark theme (`.bp6-dark …`): the portal is light, themed by the brand's
 *    colours; Blueprint adds the class only inside a `.bp6-dark` ancestor,
 *    which the app never renders (a Vitest test keeps it so);
 *  - the icon font's glyphs (`.bp6-icon-add::before`): icons are SVG components
 *    (src/lib/icons.ts), the font is never loaded.
 * They are a third of blueprint.css (about 10 KB of its 35 KB in brotli).
 */
export function isUnusedBlueprintSelector(selector: string): boolean {
  return /\.bp6-dark\b/.test(selector) || /^\.bp6-icon-[a-z0-9-]+::?before$/.test(selector.trim());
}

/** PostCSS plugin for Vite's css.postcss: trims Blueprint's own CSS files only. */
export function trimBlueprintCss(): Plugin {
  return {
    postcssPlugin: 'oportuna-trim-blueprint-css',
    Once(root) {
      if (!root.source?.input.file?.includes('@blueprintjs')) return;
      root.walkRules((rule: Rule) => {
        const kept = rule.selectors.filter((s) => !isUnusedBlueprintSelector(s));
        if (kept.length === 0) rule.remove();
        else if (kept.length < rule.selectors.length) rule.selectors = kept;
      });
      root.walkAtRules((at) => {
        if (at.nodes && at.nodes.length === 0) at.remove();
      });
    },
  };
}
