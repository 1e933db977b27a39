/**
 * The checked-in SQL files (`npm run sql`), after Immich's `server/src/queries/*.sql`: every query
 * a repository sends is written, in source order, to `libs/<lib>/sql/<file>.sql`, so a change to
 * any statement shows up in review as SQL, and a check fails when a file is stale.
 *
 * A query is tagged where it is written: `db.query(/* sql: payout.findOne *\/ \`SELECT …\`, …)`.
 * The tag is `<namespace>.<method>` (a second query of the same method adds a part:
 * `batch.insertNew.items`), unique in libs/. The files are read from the TypeScript sources (no
 * database, no build of the repositories needed), so the output depends on the sources alone:
 * - `${NAME}` is expanded when NAME is a string constant of the same file, or one imported from a
 *   relative module; `${fn(args)}` when fn is a function exported by a relative module (it is
 *   called, from dist/) and every argument is a constant.
 * - A piece built at run time (say, a multi-row VALUES list whose size varies) cannot be read off
 *   the source: the tag then names a representative value for each run-time expression the piece
 *   needs, `/* sql: payout.foo; moves.length = 3 *\/`, and the file renders that fixed shape and
 *   says so (`-- shape: moves.length = 3`). Without one, the generator refuses the query.
 * Array parameters (`unnest($1::text[], …)`) keep a statement one shape whatever the number of
 * rows, which is why no query in the repositories needs a shape today.
 *
 * A hot statement may be sent as a prepared one, `db.query({ name: 'payout.claim', text: /* sql:
 * payout.claim *\/ \`…\`, values })`: the tag then sits on `text`, and `name` must be the tag, so
 * one name never carries two texts (pg refuses that) and a reader finds the statement by its name.
 *
 * Rules it enforces over libs/ (not spec files): every `.query(…)` in a `*.repository.ts` file is
 * tagged; a `.query(…)` elsewhere is tagged too, unless it is a session or transaction statement
 * (BEGIN, COMMIT, SET, LISTEN, SELECT 1, the migration lock, CREATE DATABASE: see CONTROL below).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Session and transaction statements, and the few a process needs before any table exists: they
 * are not queries of the ledger, and may stay untagged outside repositories.
 */
const CONTROL =
  /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|RESET|SHOW|(UN)?LISTEN|SELECT 1\s*$|SELECT 1 FROM pg_database\b|SELECT pg_advisory_(un)?lock\(|CREATE DATABASE)\b/i;

const TAG = /^\/\*\s*sql:\s*([A-Za-z][\w]*(?:\.[A-Za-z][\w]*){1,2})\s*(?:;\s*([^*]*?))?\s*\*\/$/;

export interface RenderedQuery {
  readonly tag: string;
  /** `Class.method` the query is written in. */
  readonly where: string;
  readonly sql: string;
  /** Representative values the rendering used (see the header), if any. */
  readonly shape: string | null;
}

export interface SqlFile {
  /** Repository-relative path of the generated file, e.g. `libs/ledger/sql/payout.repository.sql`. */
  readonly path: string;
  /** Repository-relative path of the source it is generated from. */
  readonly source: string;
  readonly queries: readonly RenderedQuery[];
  readonly text: string;
}

export class SqlGenerationError extends Error {
  override readonly name = 'SqlGenerationError';
}

/** Where the generated file of a source file goes: `libs/x/src/a/b.ts` -> `libs/x/sql/a/b.sql`. */
export function sqlPathOf(source: string): string {
  const m = /^libs\/([^/]+)\/src\/(.+)\.ts$/.exec(source);
  if (!m) throw new SqlGenerationError(`${source}: not a file under libs/<lib>/src/`);
  return `libs/${m[1]}/sql/${m[2]}.sql`;
}

/** Every non-test TypeScript file under libs/<lib>/src, sorted (repository-relative paths). */
export function libSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts'))
        out.push(p);
    }
  };
  for (const lib of readdirSync(join(root, 'libs'), { withFileTypes: true })) {
    if (lib.isDirectory() && existsSync(join(root, 'libs', lib.name, 'src'))) walk(`libs/${lib.name}/src`);
  }
  return out.sort();
}

/** The generated files: one per source file with at least one tagged query. */
export async function generateSqlFiles(root: string, sources = libSources(root)): Promise<SqlFile[]> {
  const files: SqlFile[] = [];
  const seen = new Map<string, string>();
  const errors: string[] = [];
  for (const source of sources) {
    const queries = await renderSource(root, source, errors);
    for (const q of queries) {
      const before = seen.get(q.tag);
      if (before) errors.push(`${source}: tag ${q.tag} is already used in ${before}`);
      seen.set(q.tag, source);
    }
    if (queries.length > 0) {
      const path = sqlPathOf(source);
      files.push({ path, source, queries, text: renderFile(source, queries) });
    }
  }
  if (errors.length > 0) throw new SqlGenerationError(errors.join('\n'));
  return files;
}

export interface Drift {
  readonly path: string;
  readonly problem: 'missing' | 'stale' | 'not generated';
  readonly detail: string;
}

/** Compares the generated files with the checked-in ones (and finds checked-in ones no source makes). */
export function findDrift(root: string, files: readonly SqlFile[]): Drift[] {
  const drift: Drift[] = [];
  const wanted = new Set(files.map((f) => f.path));
  for (const f of files) {
    const abs = join(root, f.path);
    if (!existsSync(abs)) {
      drift.push({ path: f.path, problem: 'missing', detail: `generated from ${f.source}` });
      continue;
    }
    const have = readFileSync(abs, 'utf8');
    if (have !== f.text)
      drift.push({ path: f.path, problem: 'stale', detail: firstDifference(have, f.text) });
  }
  for (const path of checkedInSqlFiles(root)) {
    if (!wanted.has(path))
      drift.push({ path, problem: 'not generated', detail: 'no tagged source makes it' });
  }
  return drift;
}

/** Every `libs/<lib>/sql/**\/*.sql` on disk (repository-relative, sorted). */
export function checkedInSqlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.sql')) out.push(p);
    }
  };
  for (const lib of readdirSync(join(root, 'libs'), { withFileTypes: true })) {
    if (lib.isDirectory() && existsSync(join(root, 'libs', lib.name, 'sql'))) walk(`libs/${lib.name}/sql`);
  }
  return out.sort();
}

function firstDifference(have: string, want: string): string {
  const a = have.split('\n');
  const b = want.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}: checked in ${JSON.stringify(a[i] ?? '<end>')}, generated ${JSON.stringify(b[i] ?? '<end>')}`;
    }
  }
  return 'differs';
}

function renderFile(source: string, queries: readonly RenderedQuery[]): string {
  const header = [
    `-- Generated by \`npm run sql\` from ${source}: do not edit.`,
    '-- Change a query where it is written (each is tagged `/* sql: <name> */`) and run `npm run sql`;',
    '-- the checked-in SQL step of `npm test` fails when this file and the source disagree.',
    '-- Constants (column lists) are expanded; $1, $2, … are the parameters the method passes.',
  ];
  if (queries.some((q) => q.shape)) {
    header.push(
      '-- A query marked `shape:` is built at run time; it is shown for the representative values',
      '-- its tag names, and other values give the same statement with more or fewer repeats.',
    );
  }
  const body = queries.map((q) =>
    [`-- ${q.tag} (${q.where})`, ...(q.shape ? [`-- shape: ${q.shape}`] : []), `${q.sql};`].join('\n'),
  );
  return `${header.join('\n')}\n\n${body.join('\n\n')}\n`;
}

// --- reading one source file ---------------------------------------------------------------------

interface Ctx {
  readonly root: string;
  readonly source: string;
  readonly sf: ts.SourceFile;
  readonly errors: string[];
}

const parsed = new Map<string, ts.SourceFile>();

function parse(root: string, source: string): ts.SourceFile {
  const abs = join(root, source);
  let sf = parsed.get(abs);
  if (!sf) {
    sf = ts.createSourceFile(source, readFileSync(abs, 'utf8'), ts.ScriptTarget.ES2022, true);
    parsed.set(abs, sf);
  }
  return sf;
}

async function renderSource(root: string, source: string, errors: string[]): Promise<RenderedQuery[]> {
  const sf = parse(root, source);
  const ctx: Ctx = { root, source, sf, errors };
  const isRepository = source.endsWith('.repository.ts');
  const calls: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === 'query' &&
      n.arguments.length > 0
    ) {
      calls.push(n);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);

  const out: RenderedQuery[] = [];
  for (const call of calls) {
    const first = call.arguments[0]!;
    const named = ts.isObjectLiteralExpression(first) ? namedStatement(first) : undefined;
    const arg = named?.text ?? first;
    const at = `${source}:${sf.getLineAndCharacterOfPosition(arg.getStart()).line + 1}`;
    const tag = tagOf(sf, arg);
    if (tag && named && named.name !== tag.name) {
      errors.push(
        `${at}: a prepared statement is named after its tag: name '${tag.name}', not '${named.name}'`,
      );
    }
    if (!tag) {
      if (isRepository) {
        errors.push(`${at}: untagged query in a repository; write /* sql: <namespace>.<method> */ before it`);
      } else if (!isControl(arg)) {
        errors.push(
          `${at}: SQL outside a repository must be tagged /* sql: <namespace>.<function> */ (or belong in a repository)`,
        );
      }
      continue;
    }
    if (
      !ts.isNoSubstitutionTemplateLiteral(arg) &&
      !ts.isTemplateExpression(arg) &&
      !ts.isStringLiteral(arg)
    ) {
      errors.push(`${at}: tag ${tag.name} must sit on the SQL text itself (a string or template literal)`);
      continue;
    }
    const where = enclosingName(arg);
    const method = tag.name.split('.')[1];
    if (where.split('.').pop() !== method) {
      errors.push(`${at}: tag ${tag.name} names ${method ?? '?'}, but the query is written in ${where}`);
    }
    try {
      const { sql, usedShape } = await renderLiteral(ctx, arg, tag.bindings);
      const unused = [...tag.bindings.keys()].filter((k) => !usedShape.has(k));
      if (unused.length > 0)
        errors.push(`${at}: tag ${tag.name} names ${unused.join(', ')}, which the query does not use`);
      out.push({ tag: tag.name, where, sql, shape: tag.shape });
    } catch (e) {
      errors.push(`${at}: ${tag.name}: ${(e as Error).message}`);
    }
  }
  return out;
}

/** `{ name: 'x.y', text: …, values }`: the statement's name ('?' unless a literal) and text. */
function namedStatement(o: ts.ObjectLiteralExpression): { name: string; text: ts.Expression } | undefined {
  let name = '?';
  let text: ts.Expression | undefined;
  for (const p of o.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) continue;
    if (p.name.text === 'text') text = p.initializer;
    if (p.name.text === 'name' && ts.isStringLiteralLike(p.initializer)) name = p.initializer.text;
  }
  return text ? { name, text } : undefined;
}

interface Tag {
  readonly name: string;
  readonly shape: string | null;
  readonly bindings: Map<string, unknown>;
}

function tagOf(sf: ts.SourceFile, arg: ts.Node): Tag | undefined {
  // The trivia between the previous token and the literal (also on the line of the `(`, which
  // TypeScript counts as a trailing comment of that token).
  const trivia = sf.text.slice(arg.getFullStart(), arg.getStart(sf));
  for (const text of trivia.match(/\/\*[\s\S]*?\*\//g) ?? []) {
    if (!/^\/\*\s*sql:/.test(text)) continue;
    const m = TAG.exec(text);
    if (!m) throw new SqlGenerationError(`${sf.fileName}: malformed tag ${text}`);
    const bindings = new Map<string, unknown>();
    const shape = m[2]?.trim() || null;
    if (shape) {
      for (const part of shape.split(',')) {
        const b = /^\s*([\w.]+)\s*=\s*(.+?)\s*$/.exec(part);
        if (!b)
          throw new SqlGenerationError(
            `${sf.fileName}: tag ${m[1]}: cannot read "${part}" (want name = value)`,
          );
        bindings.set(b[1]!, JSON.parse(b[2]!) as unknown);
      }
    }
    return { name: m[1]!, shape, bindings };
  }
  return undefined;
}

function isControl(arg: ts.Expression): boolean {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return CONTROL.test(arg.text);
  if (ts.isTemplateExpression(arg)) return CONTROL.test(arg.head.text);
  return false;
}

function enclosingName(n: ts.Node): string {
  let fn: string | undefined;
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if (!fn && (ts.isMethodDeclaration(p) || ts.isFunctionDeclaration(p)) && p.name) fn = p.name.getText();
    if (ts.isClassDeclaration(p) && p.name) return `${p.name.text}.${fn ?? '?'}`;
  }
  return fn ?? '?';
}

// --- rendering a literal -------------------------------------------------------------------------

async function renderLiteral(
  ctx: Ctx,
  arg: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression,
  bindings: Map<string, unknown>,
): Promise<{ sql: string; usedShape: Set<string> }> {
  const usedShape = new Set<string>();
  const raw: string[] = [];
  const values: string[] = [];
  if (ts.isTemplateExpression(arg)) {
    raw.push(arg.head.text);
    for (const span of arg.templateSpans) {
      values.push(String(await evaluate(ctx, span.expression, bindings, usedShape)));
      raw.push(span.literal.text);
    }
  } else {
    raw.push(arg.text);
  }
  // Lay the text out as written, then put the values in: a value's own line breaks do not count
  // in the indentation, and its later lines are indented under the line it sits on.
  const marked = raw.map((r, i) => (i === 0 ? r : `\uE000${i - 1}\uE000${r}`)).join('');
  const lines = dedent(marked.split('\n'));
  const out = lines.map((line) => {
    const indent = /^ */.exec(line)![0];
    return line.replace(/\uE000(\d+)\uE000/g, (_, i: string) =>
      values[Number(i)]!.split('\n')
        .map((l, j) => (j === 0 ? l : `${indent}  ${l.trim()}`))
        .join('\n'),
    );
  });
  return { sql: out.join('\n'), usedShape };
}

/**
 * Removes the indentation of the source. The first line, when the text starts right after the
 * backtick, is put at the indentation of the lines under it (where the source shows it).
 */
function dedent(lines: string[]): string[] {
  const trimmed = lines.map((l) => l.replace(/\s+$/, ''));
  while (trimmed.length > 0 && trimmed[0] === '') trimmed.shift();
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  const indentOf = (l: string): number => /^ */.exec(l)![0].length;
  const rest = trimmed.slice(1).filter((l) => l !== '');
  if (lines[0]?.trim() && rest.length > 0) {
    trimmed[0] = ' '.repeat(Math.min(...rest.map(indentOf))) + trimmed[0]!.trimStart();
  }
  const min = Math.min(...trimmed.filter((l) => l !== '').map(indentOf));
  return trimmed.map((l) => l.slice(Math.min(min, indentOf(l))));
}

async function evaluate(
  ctx: Ctx,
  e: ts.Expression,
  bindings: Map<string, unknown>,
  usedShape: Set<string>,
): Promise<unknown> {
  const text = e.getText(ctx.sf);
  if (bindings.has(text)) {
    usedShape.add(text);
    return bindings.get(text);
  }
  if (ts.isParenthesizedExpression(e)) return evaluate(ctx, e.expression, bindings, usedShape);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isTemplateExpression(e)) {
    let s = e.head.text;
    for (const span of e.templateSpans) {
      s += String(await evaluate(ctx, span.expression, bindings, usedShape)) + span.literal.text;
    }
    return s;
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const l = await evaluate(ctx, e.left, bindings, usedShape);
    const r = await evaluate(ctx, e.right, bindings, usedShape);
    return (l as string) + (r as string);
  }
  if (ts.isArrayLiteralExpression(e)) {
    const items: unknown[] = [];
    for (const x of e.elements) items.push(await evaluate(ctx, x, bindings, usedShape));
    return items;
  }
  if (ts.isIdentifier(e)) {
    const local = constantIn(ctx.sf, e.text);
    if (local) return evaluate(ctx, local, new Map(), usedShape);
    const imported = importOf(ctx, e.text);
    if (imported) {
      const other: Ctx = { ...ctx, source: imported.source, sf: parse(ctx.root, imported.source) };
      const init = constantIn(other.sf, imported.name);
      if (init) return evaluate(other, init, new Map(), usedShape);
    }
    throw new SqlGenerationError(
      `cannot read \${${text}}: not a string constant of this file or a relative import`,
    );
  }
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
    const fn = await exportedFunction(ctx, e.expression.text);
    const args: unknown[] = [];
    for (const a of e.arguments) args.push(await evaluate(ctx, a, bindings, usedShape));
    return fn(...args);
  }
  throw new SqlGenerationError(
    `cannot read \${${text}}: it is built at run time; name a representative value in the tag ` +
      `(/* sql: <name>; ${text} = <JSON value> */) or use a constant`,
  );
}

/** The initializer of a top-level `const NAME = …` of the file, if there is one. */
function constantIn(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return d.initializer;
    }
  }
  return undefined;
}

/** `import { x as NAME } from './y.js'` -> the source of ./y.ts and `x`. */
function importOf(ctx: Ctx, name: string): { source: string; name: string } | undefined {
  for (const st of ctx.sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.text;
    const named = st.importClause?.namedBindings;
    if (!named || !ts.isNamedImports(named)) continue;
    for (const el of named.elements) {
      if (el.name.text !== name) continue;
      if (!spec.startsWith('.')) {
        throw new SqlGenerationError(`cannot read \${${name}}: imported from ${spec}, not a relative module`);
      }
      const source = relative(ctx.root, resolve(ctx.root, dirname(ctx.source), spec)).replace(/\.js$/, '.ts');
      return { source, name: (el.propertyName ?? el.name).text };
    }
  }
  return undefined;
}

/** A function exported by the file itself or by a relative import, loaded from the build (dist/). */
async function exportedFunction(ctx: Ctx, name: string): Promise<(...args: unknown[]) => unknown> {
  const imported = importOf(ctx, name) ?? { source: ctx.source, name };
  const built = join(ctx.root, 'dist', imported.source.replace(/\.ts$/, '.js'));
  if (!existsSync(built))
    throw new SqlGenerationError(`cannot call ${name}: ${built} is not built (npm run build)`);
  const mod = (await import(pathToFileURL(built).href)) as Record<string, unknown>;
  const fn = mod[imported.name];
  if (typeof fn !== 'function') {
    throw new SqlGenerationError(
      `cannot call ${name}: ${imported.source} does not export a function ${imported.name}`,
    );
  }
  return fn as (...args: unknown[]) => unknown;
}
