import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..');

/**
 * Compiles the package (tsconfig.build.json) into `node_modules/.cache/<name>`, with a package.json
 * carrying the package's `imports` and the files they name, and returns that folder, for tests that start Node processes or worker threads (Node 20 cannot load .ts). Inside the
 * repository, so `node_modules` resolves from the built files; dist/ is left to the project's build.
 * tsc emits even where another file of the tree is mid-edit, so a non-zero exit is tolerated.
 */
export function buildPackage(name: string): string {
  const out = join(REPO, 'node_modules', '.cache', name);
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO, 'tsconfig.build.json'), '--outDir', out], {
      cwd: REPO,
      stdio: 'pipe',
    });
  } catch {
    // type errors elsewhere in the tree; the emitted JavaScript is still usable
  }
  // Under node_modules the repository's package.json is out of reach: the built files need their own,
  // with the package's `imports` (#lazy) and the folder they point to.
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { imports?: unknown };
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module', imports: manifest.imports ?? {} }));
  cpSync(join(REPO, 'lazy'), join(out, 'lazy'), { recursive: true });
  return out;
}
