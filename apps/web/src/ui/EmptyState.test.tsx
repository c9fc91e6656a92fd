import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EmptyState } from './EmptyState';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const badges = (html: string) => html.match(/class="[^"]*mantine-ThemeIcon-root/g) ?? [];

/** Every `icon` given to an EmptyState (as its prop, or in a SearchableTableCard's `empty`) that is itself drawn in a ThemeIcon. */
function iconsInThemeIcon(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const hasThemeIcon = (node: ts.Node): boolean =>
    (ts.isJsxElement(node) && node.openingElement.tagName.getText() === 'ThemeIcon') ||
    (ts.isJsxSelfClosingElement(node) && node.tagName.getText() === 'ThemeIcon') ||
    node.getChildren().some(hasThemeIcon);
  const iconsOf = (node: ts.Node, out: ts.Node[]) => {
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'icon') out.push(node.initializer);
    node.forEachChild((c) => iconsOf(c, out));
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const tag = node.tagName.getText();
      for (const attr of node.attributes.properties) {
        if (!ts.isJsxAttribute(attr) || !attr.initializer) continue;
        const name = attr.name.getText();
        const icons: ts.Node[] = [];
        if (tag === 'EmptyState' && name === 'icon') icons.push(attr.initializer);
        if (tag === 'SearchableTableCard' && name === 'empty') iconsOf(attr.initializer, icons);
        for (const icon of icons) {
          if (hasThemeIcon(icon)) found.push(`${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(icon.getStart()).line + 1}`);
        }
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** Every list's empty state (a SearchableTableCard's `empty`) that brings an icon of its own but leaves it grey. */
function greyListIcons(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const named = (o: ts.ObjectLiteralExpression, name: string) => o.properties.some((p) => p.name?.getText() === name);
  const visit = (node: ts.Node) => {
    if (ts.isJsxAttribute(node) && node.name.getText() === 'empty' && ts.isJsxOpeningLikeElement(node.parent.parent)) {
      if (node.parent.parent.tagName.getText() === 'SearchableTableCard') {
        const literals = (n: ts.Node): void => {
          if (ts.isObjectLiteralExpression(n) && named(n, 'icon') && !named(n, 'color'))
            found.push(`${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
          n.forEachChild(literals);
        };
        literals(node);
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

const tsxFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsxFiles(p) : e.name.endsWith('.tsx') && !e.name.endsWith('.test.tsx') ? [p] : [];
  });

describe('EmptyState', () => {
  it('draws the icon in one round badge of the given colour', () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <EmptyState title="No pipelines yet" icon={<svg data-testid="icon" />} color="indigo" />
      </MantineProvider>,
    );
    expect(badges(html)).toHaveLength(1);
    expect(html).toContain('--mantine-color-indigo');
    expect(html).toContain('data-testid="icon"');
  });

  it('no screen hands EmptyState an icon already wrapped in a ThemeIcon (it draws the badge itself: pass `color`)', () => {
    expect(tsxFiles(SRC).flatMap(iconsInThemeIcon)).toEqual([]);
  });

  it("every list's empty state with an icon of its own gives it a colour (grey is for the default inbox)", () => {
    expect(tsxFiles(SRC).flatMap(greyListIcons)).toEqual([]);
  });
});
