// ESLint (flat config): typescript-eslint's recommended rules and
// React's rules of hooks, over the app, its tests, the browser tests and the
// build scripts. `npm run lint` runs it; `make test` calls it (web-test).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Features do not import each other (docs/web.md "Where code lives"): what two features
// share goes to components/ or lib/, and only src/app/ and App.tsx put features together.
// src/test/lint.test.ts shows the rule firing.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const acrossFeatures = (feature, topLevel) => [
  'error',
  {
    patterns: [
      {
        regex: `^@/features/(?!${feature}/)`,
        message: `A feature does not import another: move what both need to components/ or lib/ (${feature}).`,
      },
      {
        regex: topLevel ? '^\\.\\./' : '^(\\.\\./){2,}',
        message: "Leaving the feature's folder goes through '@/': '@/lib/…', '@/components/…'.",
      },
    ],
  },
];

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
  ...features.flatMap((f) => [
    { files: [`src/features/${f}/**/*.{ts,tsx}`], rules: { 'no-restricted-imports': acrossFeatures(f, false) } },
    { files: [`src/features/${f}/*.{ts,tsx}`], rules: { 'no-restricted-imports': acrossFeatures(f, true) } },
  ]),
  {
    // Shared code never reaches into a feature.
    files: ['src/lib/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(@/|(\\.\\./)+)features/', message: 'lib/ and components/ do not import features.' }] },
      ],
    },
  },
  {
    files: ['e2e/**', 'bench/**', 'build/**', '*.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
);
