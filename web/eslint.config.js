// ESLint (flat config): typescript-eslint's recommended rules and
// React's rules of hooks, over the app, its tests, the browser tests and the
// build scripts. `npm run lint` runs it; `make test` calls it (web-test).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The rules of hooks. Version 7's React Compiler rules (set-state-in-effect, refs,
      // purity, preserve-manual-memoization) are not on yet: docs/web.md "Lint".
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Icons are components; a name would make Blueprint fetch every icon's paths (src/lib/icons.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name=/^(icon|endIcon|rightIcon)$/] > Literal",
          message: "Use the icon's component (import { XIcon } from '@blueprintjs/icons'), not its name.",
        },
      ],
    },
  },
  {
    files: ['e2e/**', 'bench/**', 'build/**', '*.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
);
