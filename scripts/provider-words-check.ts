/**
 * The provider's words stay in the connector (issue 31): reads libs/pipeline's sources and finds
 * every string literal that is one of the provider's words (event names, status words, error
 * codes: `providerVocabulary()`, derived from the connector's own tables) and every read of a
 * diagnostics wire code field (`diagnostics.subCode`, `.code`, `.status`: the connector gives
 * `evidence`). Unit specs are left out: they may feed the connector's words through its testing
 * door to check a decision end to end.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface WordFinding {
  readonly path: string;
  readonly line: number;
  readonly word: string;
  readonly why: 'provider word' | 'wire code field';
}

export interface SourceText {
  readonly path: string;
  readonly text: string;
}

/** The findings in some sources, against a vocabulary and the wire code fields. */
export function providerWordsIn(
  sources: readonly SourceText[],
  vocabulary: ReadonlySet<string>,
  wireFields: readonly string[],
): WordFinding[] {
  const out: WordFinding[] = [];
  for (const s of sources) {
    const file = ts.createSourceFile(s.path, s.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const at = (n: ts.Node) => file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1;
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteralLike(n) && vocabulary.has(n.text)) {
        out.push({ path: s.path, line: at(n), word: n.text, why: 'provider word' });
      } else if (
        ts.isPropertyAccessExpression(n) &&
        wireFields.includes(n.name.text) &&
        /(^|\.)diagnostics$|^d$/.test(n.expression.getText(file))
      ) {
        out.push({ path: s.path, line: at(n), word: n.getText(file), why: 'wire code field' });
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return out;
}

/** libs/pipeline's sources (unit specs left out), relative to `root`. */
export function pipelineSources(root: string, dir = join(root, 'libs/pipeline/src')): SourceText[] {
  const out: SourceText[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pipelineSources(root, p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) {
      out.push({ path: relative(root, p), text: readFileSync(p, 'utf8') });
    }
  }
  return out;
}
