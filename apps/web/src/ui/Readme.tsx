import { Anchor, Code, List, Stack, Table, Text, Title, TypographyStylesProvider } from '@mantine/core';
import { isValidElement, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const WEB_URL = /^https?:\/\//i;

/** Only absolute http(s) addresses survive; any other scheme (javascript:, data:, …) or relative path becomes none. */
const webOnly = (url: string) => (WEB_URL.test(url.trim()) ? url : undefined);

/** The hast node react-markdown hands every component stays out of the DOM. */
const withoutNode = <P extends ExtraProps>({ node: _node, ...props }: P) => props;

const HEADING = { h1: 3, h2: 4, h3: 5, h4: 6, h5: 6, h6: 6 } as const;
const heading = (tag: keyof typeof HEADING): Components[typeof tag] =>
  function ReadmeHeading(props) {
    return <Title order={HEADING[tag]} mt={4} {...withoutNode(props)} />;
  };

/** A fenced block's text: `pre` holds one `code` element (rendered by the `code` component below). */
const blockText = (children: ReactNode): ReactNode => (isValidElement<{ children?: ReactNode }>(children) ? children.props.children : children);

const components: Components = {
  h1: heading('h1'),
  h2: heading('h2'),
  h3: heading('h3'),
  h4: heading('h4'),
  h5: heading('h5'),
  h6: heading('h6'),
  p: (props) => <Text size="sm" {...withoutNode(props)} />,
  a: ({ href, children }) =>
    href && WEB_URL.test(href) ? (
      <Anchor href={href} target="_blank" rel="noreferrer">
        {children}
      </Anchor>
    ) : (
      <span>{children}</span>
    ),
  // A README's image would be fetched from wherever it points: its alt text links to it instead.
  img: ({ src, alt }) => {
    const label = alt || 'image';
    return typeof src === 'string' && WEB_URL.test(src) ? (
      <Anchor href={src} target="_blank" rel="noreferrer" data-testid="readme-image-link">
        {label}
      </Anchor>
    ) : (
      <span>{alt}</span>
    );
  },
  code: ({ children }) => <Code>{children}</Code>,
  pre: ({ children }) => <Code block>{blockText(children)}</Code>,
  ul: ({ children }) => (
    <List type="unordered" size="sm" spacing={2}>
      {children}
    </List>
  ),
  ol: ({ children, start }) => (
    <List type="ordered" size="sm" spacing={2} start={start}>
      {children}
    </List>
  ),
  li: ({ children }) => <List.Item>{children}</List.Item>,
  table: ({ children }) => (
    <Table withTableBorder withColumnBorders fz="sm" data-testid="readme-table">
      {children}
    </Table>
  ),
  thead: (props) => <Table.Thead {...withoutNode(props)} />,
  tbody: (props) => <Table.Tbody {...withoutNode(props)} />,
  tr: (props) => <Table.Tr {...withoutNode(props)} />,
  th: (props) => <Table.Th {...withoutNode(props)} />,
  td: (props) => <Table.Td {...withoutNode(props)} />,
};

const remarkPlugins = [remarkGfm];

/**
 * Component and service READMEs as GitHub-flavoured Markdown (react-markdown + remark-gfm), safely: raw HTML is
 * skipped, only http(s) links are anchors (others are their text), and no image is loaded. Only the lazy pages that
 * show a README import it, so the parser stays out of the shell and the signed-out pages.
 */
export function Readme({ text, testId = 'component-readme' }: { text: string; testId?: string }) {
  return (
    <TypographyStylesProvider p={0}>
      <Stack gap="sm" data-testid={testId}>
        <Markdown remarkPlugins={remarkPlugins} components={components} skipHtml urlTransform={webOnly}>
          {text}
        </Markdown>
      </Stack>
    </TypographyStylesProvider>
  );
}
