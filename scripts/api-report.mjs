#!/usr/bin/env node
// `npm run api:report`: writes the package's API reports, docs/api/geoshard.api.md (the import
// `geoshard`, src/core/index.ts), docs/api/geoshard-opensearch.api.md (`geoshard/opensearch`,
// src/opensearch/index.ts) and docs/api/geoshard-ops.api.md (`geoshard/ops`, src/core/ops.ts):
// every export of the entry's built .d.ts, sorted by name, with its declaration as the package
// ships it (doc comments left out, so the report changes only when the surface does). An export
// without a doc comment is marked `// (undocumented)` and makes the run exit 1, and one whose
// declaration names a type of the package that the entry does not export is marked
// `// (references unexported: Name)`, as api-extractor's ae-forgotten-export would.
//
// The same idea as api-extractor's report (not installed here): the declarations are emitted with
// the TypeScript compiler API from tsconfig.build.types.json, the config `npm run build:lib` emits
// dist/'s .d.ts with, in memory, so the report never reads a stale dist/. scripts/api-report.test.ts
// regenerates both reports and fails with the diff when the checked-in files differ.
//
//   node scripts/api-report.mjs            write docs/api/*.api.md
//   node scripts/api-report.mjs --check    exit 1, printing what differs, when a report is out of date
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package's entries: the import specifier, the source entry, and the report file (relative to the repository). */
export const ENTRIES = [
  { specifier: 'geoshard', source: 'src/core/index.ts', report: 'docs/api/geoshard.api.md' },
  { specifier: 'geoshard/opensearch', source: 'src/opensearch/index.ts', report: 'docs/api/geoshard-opensearch.api.md' },
  { specifier: 'geoshard/ops', source: 'src/core/ops.ts', report: 'docs/api/geoshard-ops.api.md' },
];

/** The command that rewrites the reports, as the test's failure message names it. */
export const UPDATE_COMMAND = 'npm run api:report';

/**
 * emitDeclarations compiles tsconfig.build.types.json in memory and returns its .d.ts files by
 * absolute path (under `<root>/dist`, where build:lib writes them). Throws with the compiler's
 * messages when the sources do not compile.
 */
function emitDeclarations(root) {
  const configPath = join(root, 'tsconfig.build.types.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, { outDir: join(root, 'dist') }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const out = new Map();
  const result = program.emit(undefined, (name, text) => out.set(resolve(name), text), undefined, true);
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length) throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  return out;
}

/** A program over the in-memory .d.ts files (and the real node_modules they import types from). */
function declarationProgram(files, roots) {
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [], skipLibCheck: true, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => files.has(resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => files.get(resolve(f)) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => (files.has(resolve(f)) ? ts.createSourceFile(f, files.get(resolve(f)), lang, true) : getSourceFile.call(host, f, lang, ...rest));
  return ts.createProgram(roots, options, host);
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** printed returns a declaration as the .d.ts states it, without comments; a variable prints as its whole statement. */
function printed(decl) {
  const node = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
  return printer.printNode(ts.EmitHint.Unspecified, node, decl.getSourceFile()).trim();
}

/** documented says whether a declaration carries a doc comment (`/** … *\/`) in the .d.ts. */
function documented(decl) {
  const node = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
  return ts.getJSDocCommentsAndTags(node).length > 0 || ts.getJSDocCommentsAndTags(decl).length > 0;
}

/**
 * unexportedReferences returns the names of the package's own declarations (in `files`) that
 * `decl` refers to in a type position or `extends`/`implements` clause but no entry exports.
 */
function unexportedReferences(decl, checker, files, exported) {
  const found = new Set();
  const visit = (n) => {
    const ref = ts.isTypeReferenceNode(n) ? n.typeName : ts.isExpressionWithTypeArguments(n) ? n.expression : ts.isTypeQueryNode(n) ? n.exprName : undefined;
    if (ref) {
      let sym = checker.getSymbolAtLocation(ts.isQualifiedName(ref) ? ref.left : ref);
      if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
      const own = sym?.declarations?.some((d) => files.has(resolve(d.getSourceFile().fileName)));
      if (sym && own && !(sym.flags & ts.SymbolFlags.TypeParameter) && !exported.has(sym)) found.add(sym.name);
    }
    ts.forEachChild(n, visit);
  };
  visit(decl);
  return [...found].sort();
}

/**
 * apiReports returns each entry's report text by report path: every export of the entry's
 * declarations, sorted by name, with its declarations (overloads and merged declarations
 * together, in file order).
 */
export function apiReports(root = ROOT) {
  const files = emitDeclarations(root);
  const dts = (entry) => join(root, 'dist', relative('src', entry.source).replace(/\.ts$/, '.d.ts'));
  const program = declarationProgram(files, ENTRIES.map(dts));
  const checker = program.getTypeChecker();
  const reports = new Map();
  const resolved = (sym) => (sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym);
  const exportsOf = (entry) => {
    const file = program.getSourceFile(dts(entry));
    if (!file) throw new Error(`no declarations emitted for ${entry.source}`);
    return checker.getExportsOfModule(checker.getSymbolAtLocation(file)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  // A type is reachable when any entry exports it (geoshard/opensearch's signatures name geoshard's Router).
  const exported = new Set(ENTRIES.flatMap((e) => exportsOf(e).map(resolved)));
  for (const entry of ENTRIES) {
    const exports = exportsOf(entry);
    const blocks = [];
    let undocumented = 0;
    let forgotten = 0;
    for (const sym of exports) {
      const target = resolved(sym);
      const decls = target.declarations ?? [];
      const lines = [];
      if (!decls.some(documented)) {
        lines.push('// (undocumented)');
        undocumented++;
      }
      const missing = [...new Set(decls.flatMap((d) => unexportedReferences(d, checker, files, exported)))];
      if (missing.length) {
        lines.push(`// (references unexported: ${missing.join(', ')})`);
        forgotten++;
      }
      if (target.name !== sym.name) lines.push(`// exported as ${sym.name}`);
      for (const d of decls) lines.push(printed(d));
      blocks.push(lines.join('\n'));
    }
    reports.set(
      entry.report,
      `# API report: \`${entry.specifier}\`

Every export of \`${entry.specifier}\` (${entry.source}, as its built .d.ts declares it), sorted by name:
${exports.length} exports${undocumented ? `, ${undocumented} without a doc comment` : ''}${forgotten ? `, ${forgotten} naming a type the entry does not export` : ''}. Generated by \`${UPDATE_COMMAND}\`
(scripts/api-report.mjs); scripts/api-report.test.ts fails when this file is out of date, so a change
of the public surface shows as a diff of this file in review. Do not edit by hand.

\`\`\`ts
${blocks.join('\n\n')}
\`\`\`
`,
    );
  }
  return reports;
}

/**
 * undocumentedNames lists the exports a report marks `// (undocumented)`: an export without a doc
 * comment (its units, ranges and preconditions are then nowhere a user can read them).
 */
export function undocumentedNames(report) {
  const code = /```ts\n([\s\S]*)```/.exec(report)?.[1] ?? '';
  return code
    .split('\n\n')
    .filter((block) => block.startsWith('// (undocumented)'))
    .map((block) => /^\/\/ exported as (\w+)$/m.exec(block)?.[1] ?? /^export (?:declare )?(?:abstract )?(?:const|let|function|class|interface|type|enum|namespace) (\w+)/m.exec(block)?.[1] ?? block.split('\n')[1]);
}

/** exportCounts returns each entry's number of exports, read from its report, by import specifier. */
export function exportCounts(reports) {
  return new Map(ENTRIES.map((e) => [e.specifier, Number(/^(\d+) exports/m.exec(reports.get(e.report))?.[1])]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const check = process.argv.includes('--check');
  const reports = apiReports();
  let stale = 0;
  // Every export carries a doc comment: the report is written (so the diff shows where), but the run fails.
  let bare = 0;
  for (const [path, text] of reports) {
    const names = undocumentedNames(text);
    bare += names.length;
    if (names.length) console.error(`${path}: ${names.length} export(s) without a doc comment: ${names.join(', ')} (document each with its units, ranges and preconditions)`);
  }
  for (const [path, text] of reports) {
    const abs = join(ROOT, path);
    const old = existsSync(abs) ? readFileSync(abs, 'utf8') : undefined;
    if (old === text) continue;
    if (check) {
      stale++;
      console.error(`${path} is out of date: run \`${UPDATE_COMMAND}\``);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(`${abs}.tmp`, text);
    renameSync(`${abs}.tmp`, abs);
    console.log(`wrote ${path}`);
  }
  process.exit(stale || bare ? 1 : 0);
}
