// STYLE 8's names, checked by the type checker (issue 40, decision 0073): in the modules'
// repositories and services, `find*` returns a list (an array, a Map or Set, or a page whose
// `data` or `rows` is one), `get*` returns one thing or throws (never undefined or null), and `lookup*`
// returns one thing or nothing (its type holds undefined or null, else it is a `get*`). Each rule is
// also run on a fixture that breaks it, so a rule that could never fail would show here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const API = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(API, 'test/fixtures/names/naming.repository.ts');

/** `file:line name: what is wrong` for every exported function whose name its type belies. */
function misnamed(program: ts.Program, files: string[]): string[] {
  const checker = program.getTypeChecker();
  const unwrap = (type: ts.Type): ts.Type => {
    // The awaited value of a Promise.
    const awaited = checker.getAwaitedType(type);
    return awaited ?? type;
  };
  const parts = (type: ts.Type): ts.Type[] => (type.isUnion() ? type.types : [type]);
  const isNothing = (type: ts.Type) =>
    (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) !== 0;
  const isList = (type: ts.Type): boolean => {
    if (checker.isArrayType(type) || checker.isTupleType(type)) return true;
    const name = type.getSymbol()?.getName();
    if (name === 'Map' || name === 'Set' || name === 'ReadonlyMap' || name === 'ReadonlySet') {
      return true;
    }
    // A page: its `data` (the answer's) or `rows` (the repository's) is the list.
    return ['data', 'rows'].some((key) => {
      const property = type.getProperty(key);
      return property !== undefined && checker.isArrayType(checker.getTypeOfSymbol(property));
    });
  };

  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not in the program: ${file}`);
    const module = checker.getSymbolAtLocation(source);
    if (!module) continue;
    for (const symbol of checker.getExportsOfModule(module)) {
      const name = symbol.getName();
      const prefix = /^(find|get|lookup)[A-Z]/.exec(name)?.[1];
      if (!prefix) continue;
      const declaration = symbol.valueDeclaration;
      if (!declaration || declaration.getSourceFile() !== source) continue; // a re-export
      const signatures = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures();
      if (signatures.length === 0) continue;
      const where = `${path.relative(API, file)}:${source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1} ${name}`;
      for (const signature of signatures) {
        const returned = parts(unwrap(signature.getReturnType()));
        const nothing = returned.some(isNothing);
        const things = returned.filter((t) => !isNothing(t));
        if (prefix === 'find' && !(things.length > 0 && things.every(isList))) {
          found.push(
            `${where}: find* returns ${checker.typeToString(signature.getReturnType())}, not a list`,
          );
        } else if (prefix === 'find' && nothing) {
          found.push(`${where}: find* may return nothing; an empty list says none`);
        } else if (prefix === 'get' && nothing) {
          found.push(`${where}: get* may return nothing (a lookup*, or throw not found)`);
        } else if (prefix === 'lookup' && !nothing) {
          found.push(`${where}: lookup* always returns something (a get*)`);
        }
      }
    }
  }
  return found;
}

function programOf(files: string[]): ts.Program {
  const configFile = ts.readConfigFile(path.join(API, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, API);
  return ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
}

describe('the names of the modules’ data access (STYLE 8)', () => {
  it('agree with what each find*, get* and lookup* returns', () => {
    const files = ts.sys
      .readDirectory(path.join(API, 'src/modules'), ['.ts'])
      .filter((f) => /\.(repository|service)\.ts$/.test(f));
    expect(files.length).toBeGreaterThan(40);
    expect(misnamed(programOf(files), files)).toEqual([]);
  }, 120_000);

  it('finds each kind of misnaming in a fixture built with them', () => {
    expect(misnamed(programOf([FIXTURE]), [FIXTURE])).toEqual([
      'test/fixtures/names/naming.repository.ts:6 findOneRow: find* returns Promise<Row | undefined>, not a list',
      'test/fixtures/names/naming.repository.ts:15 findRowsOrNone: find* may return nothing; an empty list says none',
      'test/fixtures/names/naming.repository.ts:24 getRowOrNone: get* may return nothing (a lookup*, or throw not found)',
      'test/fixtures/names/naming.repository.ts:31 lookupRow: lookup* always returns something (a get*)',
    ]);
  });
});
