// Writes the municipality table of geo/ (municipios.tsv: IBGE code, tab, name;
// ordered by code) from an unpacked @brazilian-utils/brazilian-utils package.
// Usage: node extract.mjs <path of the unpacked package>  (see generate.sh)
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = process.argv[2];
if (!pkg) {
  console.error('usage: node extract.mjs <unpacked package folder>');
  process.exit(2);
}
const load = (name) => import(pathToFileURL(path.join(pkg, 'dist', name)).href);
const { getStates } = await load('get-states.js');
const { getMunicipalities } = await load('get-municipalities.js');

const rows = [];
for (const state of getStates()) {
  for (const m of getMunicipalities(state.code)) {
    const code = String(m.code);
    if (!/^\d{7}$/.test(code) || code.slice(0, 2) !== String(state.ibgeCode)) {
      throw new Error(`unexpected code ${code} for ${m.name}/${state.code}`);
    }
    if (/[\t\n]/.test(m.name)) throw new Error(`bad name ${JSON.stringify(m.name)}`);
    rows.push([code, m.name.normalize('NFC')]);
  }
}
rows.sort((a, b) => a[0].localeCompare(b[0]));
if (new Set(rows.map((r) => r[0])).size !== rows.length) throw new Error('duplicate codes');
process.stdout.write(rows.map((r) => r.join('\t')).join('\n') + '\n');
console.error(`${getStates().length} states, ${rows.length} municipalities`);
