import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The environment is read, never written: a composition root (the local runtime, the admin CLI)
// hands its settings to the configuration (configureRoot) and its stores to the storage port
// (bindStorage) instead. A write anywhere in lambdas/, local/ or bin/ (an assignment, a delete, an
// Object.assign, or process.env handed whole to a function that could write it) fails here; only
// the configuration module may touch process.env beyond reading one variable.

const ROOT = resolve(import.meta.dirname, '../../..');
const ALLOWED = new Set(['lambdas/platform/config.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const isProcessEnv = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process';

/** process.env itself, or one of its variables (`process.env.X`, `process.env[name]`). */
const isEnvOrVariable = (node: ts.Node): boolean =>
  isProcessEnv(node) || ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && isProcessEnv(node.expression));

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
]);

/** Each place `source` writes the environment, as `line: text`. */
const INCREMENTS = new Set<ts.SyntaxKind>([ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken]);

export function envWrites(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node) => found.push(`${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`);
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind) && isEnvOrVariable(node.left)) report(node);
    else if (ts.isDeleteExpression(node) && isEnvOrVariable(node.expression)) report(node);
    // ++ and -- write; !, -, + and ~ only read.
    else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && INCREMENTS.has(node.operator) && isEnvOrVariable(node.operand)) report(node);
    else if (ts.isCallExpression(node) && node.arguments.some(isProcessEnv)) report(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('nothing in lambdas/, local/ or bin/ writes process.env', () => {
  it('finds writes and only writes (the check is not blind)', () => {
    const bad = [
      "process.env.TABLE_NAME = 't';",
      "process.env.AWS_REGION ??= 'us-east-1';",
      "process.env['S3_' + 'FORCE_PATH_STYLE'] = 'true';",
      'delete process.env.AWS_PROFILE;',
      "Object.assign(process.env, { DEPLOYMENT: 'local' });",
      'adoptSharedSettings(process.env, {});',
      'process.env = {};',
      'process.env.RETRIES++;',
    ];
    for (const line of bad) expect(envWrites('bad.ts', line), line).toHaveLength(1);
    const good = [
      "const port = Number(process.env.PORT ?? 3000);",
      "const local = process.env.DEPLOYMENT === 'local';",
      'const copy = { ...process.env, DEBUG: "1" };',
      'const name = process.env[key];',
      'env.TABLE_NAME = "t";',
      'if (!process.env.AWS_ENDPOINT_URL) start();',
    ];
    for (const line of good) expect(envWrites('good.ts', line), line).toEqual([]);
  });

  it('holds for every source file but the configuration module', () => {
    const files = ['lambdas', 'local', 'bin'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const writes = files
      .filter((path) => !ALLOWED.has(relative(ROOT, path)))
      .flatMap((path) => envWrites(path, readFileSync(path, 'utf8')).map((w) => `${relative(ROOT, path)}:${w}`));
    expect(writes).toEqual([]);
  });
});
