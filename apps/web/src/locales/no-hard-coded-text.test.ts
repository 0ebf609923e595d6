import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcRoot = join(import.meta.dirname, '..');

/** Attributes whose value a user reads or hears. */
const textAttributes = new Set([
  'title', 'placeholder', 'label', 'alt', 'aria-label', 'message', 'description', 'okText', 'cancelText',
  'content', 'tooltip', 'extra', 'subTitle',
]);

// Letters of any script (Latin, CJK, kana); digits and punctuation alone are not words.
const hasWords = (text: string) => /[\p{L}]/u.test(text);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });
}

/** User-visible string literals in JSX: text children and the attributes above. */
export function findHardCodedText(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(srcRoot, fileName)}:${line + 1} ${JSON.stringify(text.trim())}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && textAttributes.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init) && hasWords(init.text)) report(node, init.text);
      if (ts.isJsxExpression(init) && init.expression) {
        const expr = init.expression;
        if ((ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) && hasWords(expr.text)) report(node, expr.text);
        if (ts.isTemplateExpression(expr) && hasWords(expr.head.text + expr.templateSpans.map((s) => s.literal.text).join(''))) {
          report(node, expr.getText(file));
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('user-visible text comes from the catalogues', () => {
  it('the checker catches text children and text attributes', () => {
    const sample = `const a = <div title="Hello" aria-label={'Close'} data-x="ok">Save {n} 保存<img alt="" /></div>;`;
    expect(findHardCodedText(join(srcRoot, 'sample.tsx'), sample)).toEqual([
      'sample.tsx:1 "Hello"',
      'sample.tsx:1 "Close"',
      'sample.tsx:1 "Save"',
      'sample.tsx:1 "保存"',
    ]);
  });

  it('no .tsx file under src holds a hard-coded user-visible string', () => {
    const offences = tsxFiles(srcRoot).flatMap((path) => findHardCodedText(path, readFileSync(path, 'utf8')));
    expect(offences).toEqual([]);
  });
});
