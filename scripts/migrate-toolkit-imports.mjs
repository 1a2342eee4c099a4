// One-off, idempotent: rewrites imports written before the toolkit became a package (issue 17) — for branches
// merged after it. `src/main/toolkit/…` and the four `src/shared` modules that moved (errors, market-model,
// market-rules, aggregator) become the package's public entries in src, sandbox, bench and scripts; inside the
// package they become relative paths to its `model/`; tests keep their deep paths, pointed at packages/toolkit.
// Usage: node scripts/migrate-toolkit-imports.mjs   (prints the files it changed; then typecheck and lint)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const MODEL = 'errors|market-model|market-rules';
const files = execFileSync('git', ['ls-files', 'src', 'sandbox', 'tests', 'bench', 'scripts', 'packages', 'examples'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|tsx|mts|mjs)$/.test(f) && !f.endsWith('migrate-toolkit-imports.mjs'));

for (const file of files) {
  const before = readFileSync(file, 'utf8');
  let after = before;
  if (file.startsWith('packages/toolkit/src/')) {
    const depth = file.split('/').length - 4;
    after = after.replace(/'(\.\.\/)+shared\/(errors|market-model|aggregator|market-rules)'/g, (_m, _d, name) =>
      file.startsWith('packages/toolkit/src/model/')
        ? `'./${name}'`
        : depth === 0
          ? `'./model/${name}'`
          : `'${'../'.repeat(depth)}model/${name}'`,
    );
  } else if (file.startsWith('tests/')) {
    after = after
      .replace(/src\/main\/toolkit/g, 'packages/toolkit/src')
      .replace(new RegExp(`src/shared/(${MODEL}|aggregator)'`, 'g'), "packages/toolkit/src/model/$1'");
  } else {
    after = after
      .replace(/'((\.\.?\/)+)(src\/)?(main\/)?toolkit(\/[\w/-]+)?'/g, "'@pmdesk/toolkit'")
      .replace(new RegExp(`'((\\.\\.?/)+)(src/)?shared/(${MODEL})'`, 'g'), "'@pmdesk/toolkit/model'")
      .replace(/'((\.\.?\/)+)(src\/)?shared\/aggregator'/g, "'@pmdesk/toolkit/aggregator-wire'");
    if (file.startsWith('src/shared/')) {
      after = after
        .replace(new RegExp(`'\\./(${MODEL})'`, 'g'), "'@pmdesk/toolkit/model'")
        .replace(/'\.\/aggregator'/g, "'@pmdesk/toolkit/aggregator-wire'");
    }
  }
  if (after !== before) {
    writeFileSync(file, after);
    console.log(file);
  }
}
