import { join } from 'node:path';
import ts from 'typescript5';

/**
 * The names (runtime values and types together) each source entry exports, read with the TypeScript
 * compiler the way a user's editor sees them: `checker.getExportsOfModule` on the entry file, so
 * `export *` and `export type` count too; `values` are those that exist at run time, `foreign` those
 * another package declares (a re-export of its name). One program for
 * all entries (the compile is the slow part).
 */
export function exportedNames(root: string, sources: readonly string[]): Record<string, { names: string[]; values: string[]; foreign: string[] }> {
  const files = sources.map((source) => join(root, `${source}.ts`));
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const out: Record<string, { names: string[]; values: string[]; foreign: string[] }> = {};
  sources.forEach((source, index) => {
    const file = program.getSourceFile(files[index] as string);
    const symbol = file && checker.getSymbolAtLocation(file);
    if (symbol === undefined) throw new Error(`${source}.ts is not a module`);
    const exported = checker.getExportsOfModule(symbol);
    const isValue = (one: ts.Symbol): boolean => {
      if ((one.declarations ?? []).some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration))) return false;
      const target = one.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(one) : one;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    };
    const declaredIn = (one: ts.Symbol): string[] => {
      const target = one.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(one) : one;
      return (target.declarations ?? []).map((declaration) => declaration.getSourceFile().fileName);
    };
    out[source] = {
      names: exported.map((one) => one.getName()).sort(),
      values: exported.filter(isValue).map((one) => one.getName()).sort(),
      foreign: exported.filter((one) => declaredIn(one).some((file) => file.includes('/node_modules/'))).map((one) => one.getName()).sort(),
    };
  });
  return out;
}
