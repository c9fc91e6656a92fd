import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { useProjectPermission } from '../../../api/permissions';
import { NoAwsAccounts } from './NoAwsAccounts';

const member = vi.hoisted(() => ({ permission: 'owner' as 'owner' | 'read' }));
vi.mock('../../../api/permissions', async (actual) => {
  const real = await actual<typeof import('../../../api/permissions')>();
  return {
    ...real,
    useProjectPermission: (): Pick<ReturnType<typeof useProjectPermission>, 'refusal'> => ({ refusal: (a) => real.refusal(member.permission, a) }),
  };
});

const render = () =>
  renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <NoAwsAccounts description="Connect an AWS account to look for waste." />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('NoAwsAccounts', () => {
  it('the AWS screens without an account (Cloud Waste Manager, schedules) show one orange badge, not a badge in a badge', () => {
    const html = render();
    expect(html.match(/class="[^"]*mantine-ThemeIcon-root/g)).toHaveLength(1);
    expect(html).toContain('--mantine-color-orange');
    expect(html).toContain('No AWS accounts connected');
  });

  it('is the one empty state of every AWS screen without an account (the Cost Explorer spelt out its own, with another button)', () => {
    const features = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.tsx') && !e.name.endsWith('.test.tsx') ? [path.join(dir, e.name)] : [],
        );
    const spelling = files(features).filter((f) => fs.readFileSync(f, 'utf8').includes('No AWS accounts connected'));
    expect(spelling.map((f) => path.relative(features, f))).toEqual(['cloud-accounts/components/NoAwsAccounts.tsx']);
  });

  it('offers Connect AWS Account (a link to Settings → Cloud Accounts) to whom may connect one, and to a read member only disabled, saying why', () => {
    member.permission = 'owner';
    expect(render()).toMatch(/<a [^>]*href="\/settings\?tab=accounts"[^>]*>.*Connect AWS Account/);
    member.permission = 'read';
    const html = render();
    expect(html).not.toContain('href="/settings?tab=accounts"');
    expect(html).toMatch(/<span [^>]*data-refused="change"[^>]*><button [^>]*disabled=""[^>]*>.*Connect AWS Account/);
  });
});
