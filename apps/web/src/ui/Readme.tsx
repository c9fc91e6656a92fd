import { Anchor, Code, List, Stack, Table, Text, Title, TypographyStylesProvider } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A small, safe markdown view for component and service READMEs (no HTML is injected): headings, paragraphs,
 * bullet and numbered lists, tables, fenced code, inline code, bold, emphasis and http(s) links. Anything
 * else shows as text.
 */
export function Readme({ text, testId = 'component-readme' }: { text: string; testId?: string }) {
  return (
    <TypographyStylesProvider p={0}>
      <Stack gap="sm" data-testid={testId}>
        {blocks(text)}
      </Stack>
    </TypographyStylesProvider>
  );
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s](?:[^*]*[^*\s])?\*|\[[^\]]+\]\([^)\s]+\))/g;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
/** A table row's cells; '\\|' is a pipe inside a cell. */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

function inline(text: string, key: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    const k = `${key}-${i}`;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <Code key={k}>{part.slice(1, -1)}</Code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <strong key={k}>{part.slice(2, -2)}</strong>;
    if (part.startsWith('*') && part.endsWith('*') && part.length > 2) return <em key={k}>{part.slice(1, -1)}</em>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = link[2]!;
      return /^https?:\/\//i.test(href) ? (
        <Anchor key={k} href={href} target="_blank" rel="noreferrer">
          {link[1]}
        </Anchor>
      ) : (
        <span key={k}>{link[1]}</span>
      );
    }
    return part;
  });
}

function blocks(text: string): ReactNode[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const key = `b${i}`;
    if (/^\s*```/.test(line)) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !/^\s*```/.test(lines[i]!)) body.push(lines[i++]!);
      i += 1;
      out.push(
        <Code key={key} block>
          {body.join('\n')}
        </Code>,
      );
      continue;
    }
    if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[i + 1] ?? '')) {
      const head = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i]!)) rows.push(cells(lines[i++]!));
      out.push(
        <Table key={key} withTableBorder withColumnBorders fz="sm" data-testid="readme-table">
          <Table.Thead>
            <Table.Tr>
              {head.map((c, n) => (
                <Table.Th key={n}>{inline(c, `${key}-h${n}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, r) => (
              <Table.Tr key={r}>
                {head.map((_, n) => (
                  <Table.Td key={n}>{inline(row[n] ?? '', `${key}-${r}-${n}`)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const order = Math.min(6, heading[1]!.length + 2) as 3 | 4 | 5 | 6;
      out.push(
        <Title key={key} order={order} mt={4}>
          {inline(heading[2]!, key)}
        </Title>,
      );
      i += 1;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d+[.)]\s+/.test(line);
      const items: string[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!)) items.push(lines[i++]!.replace(/^\s*([-*+]|\d+[.)])\s+/, ''));
      out.push(
        <List key={key} type={ordered ? 'ordered' : 'unordered'} size="sm" spacing={2}>
          {items.map((item, n) => (
            <List.Item key={n}>{inline(item, `${key}-${n}`)}</List.Item>
          ))}
        </List>,
      );
      continue;
    }
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() &&
      !/^(#{1,6}\s|\s*```|\s*([-*+]|\d+[.)])\s+)/.test(lines[i]!) &&
      !(TABLE_ROW.test(lines[i]!) && TABLE_RULE.test(lines[i + 1] ?? ''))
    )
      para.push(lines[i++]!.trim());
    out.push(
      <Text key={key} size="sm">
        {inline(para.join(' '), key)}
      </Text>,
    );
  }
  return out;
}
