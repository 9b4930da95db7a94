import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { EndpointName } from '#shared/contract/index';

/**
 * Every money field of every answer, read from the contract's types (src/shared/contract: an
 * answer's type is a phantom `res`, so only the compiler knows it). A field is money when it is
 * declared `Money` (src/shared/money.ts: a decimal string of the account currency with two places).
 * A path is the field's keys from the answer's `data`, `[]` for an array's items:
 * `rows.[].price_all`, `charges.total`. Every one of them goes through `formatMoney`,
 * and none ever carries four decimals.
 */

const CONTRACT = fileURLToPath(new URL('../../src/shared/contract/index.ts', import.meta.url));

let cached: Map<EndpointName, string[]> | null = null;

/** The money paths of each endpoint's answer (an endpoint without money is absent). */
export function moneyPaths(): Map<EndpointName, string[]> {
  if (cached) return cached;
  const program = ts.createProgram([CONTRACT], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    // The contract names no DOM type: without the DOM's declarations (the default lib of the
    // target) the program has less to parse, and the paths are the same.
    lib: ['lib.es2022.d.ts'],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(CONTRACT);
  if (!source) throw new Error(`no source ${CONTRACT}`);
  const module = checker.getSymbolAtLocation(source);
  const exported = module && checker.getExportsOfModule(module).find((s) => s.name === 'contract');
  if (!exported) throw new Error('the contract is not exported');
  const contractType = checker.getTypeOfSymbol(exported);
  const out = new Map<EndpointName, string[]>();
  for (const endpoint of checker.getPropertiesOfType(contractType)) {
    const res = checker.getTypeOfSymbol(endpoint).getProperty('res');
    if (!res) continue;
    const answer = checker.getNonNullableType(checker.getTypeOfSymbol(res));
    const paths: string[] = [];
    walk(checker, answer, [], paths, new Set());
    if (paths.length > 0) out.set(endpoint.name as EndpointName, [...new Set(paths)].sort());
  }
  cached = out;
  return out;
}

/** Whether a property is declared with the `Money` alias (alone, or beside null/undefined). */
function declaredMoney(prop: ts.Symbol): boolean {
  return (prop.declarations ?? []).some((d) => {
    const node = (d as ts.PropertySignature).type;
    if (!node) return false;
    const parts = ts.isUnionTypeNode(node) ? node.types : [node];
    return parts.some((p) => ts.isTypeReferenceNode(p) && p.typeName.getText() === 'Money');
  });
}

function walk(checker: ts.TypeChecker, type: ts.Type, at: string[], out: string[], seen: Set<ts.Type>): void {
  if (seen.has(type)) return;
  if (type.isUnion() || type.isIntersection()) {
    for (const member of type.types) walk(checker, member, at, out, seen);
    return;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const item of checker.getTypeArguments(type as ts.TypeReference))
      walk(checker, item, [...at, '[]'], out, seen);
    return;
  }
  if (!(type.flags & ts.TypeFlags.Object)) return;
  seen.add(type);
  for (const prop of checker.getPropertiesOfType(type)) {
    const path = [...at, prop.name];
    if (declaredMoney(prop)) out.push(path.join('.'));
    else walk(checker, checker.getNonNullableType(checker.getTypeOfSymbol(prop)), path, out, seen);
  }
  seen.delete(type);
}

/** Every value at `path` in an answer's data (none where a nullable object or an array is empty). */
export function valuesAt(data: unknown, path: string): unknown[] {
  let values: unknown[] = [data];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const v of values) {
      if (v === null || v === undefined) continue;
      if (key === '[]') {
        if (Array.isArray(v)) next.push(...v);
      } else if (typeof v === 'object' && key in v) next.push((v as Record<string, unknown>)[key]);
    }
    values = next;
  }
  return values;
}

/**
 * Each money value of an answer of `name`, with its path: what a server test checks is a
 * two-decimal amount, and the unit test walks through the formatter.
 */
export function moneyOf(name: EndpointName, data: unknown): Array<{ path: string; value: unknown }> {
  // A field declared `Money | null` (a buy's profit) may be null: no amount, nothing to show.
  return (moneyPaths().get(name) ?? []).flatMap((path) =>
    valuesAt(data, path)
      .filter((value) => value !== null)
      .map((value) => ({ path, value })),
  );
}
