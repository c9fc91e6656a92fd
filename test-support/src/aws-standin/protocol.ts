/** The wire formats of the AWS protocols the stand-in speaks: EC2 query, AWS query (XML), AWS JSON 1.0/1.1. */
export type Params = Record<string, string>;

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** XML of a value: an object's keys become elements, arrays are `item` (EC2) or `member` elements. */
export type XmlValue = string | number | boolean | null | undefined | XmlValue[] | { [k: string]: XmlValue } | XmlList;
export class XmlList {
  constructor(
    readonly itemName: string,
    readonly items: XmlValue[],
  ) {}
}
export const items = (values: XmlValue[]) => new XmlList('item', values);
export const members = (values: XmlValue[]) => new XmlList('member', values);
export const named = (name: string, values: XmlValue[]) => new XmlList(name, values);

export function xml(v: XmlValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof XmlList) return v.items.map((i) => `<${v.itemName}>${xml(i)}</${v.itemName}>`).join('');
  if (Array.isArray(v)) return v.map(xml).join('');
  if (typeof v === 'object')
    return Object.entries(v)
      .filter(([, x]) => x !== undefined && x !== null)
      .map(([k, x]) => `<${k}>${xml(x)}</${k}>`)
      .join('');
  return esc(String(v));
}

/** The numbered list `prefix.1`, `prefix.member.1` or `prefix.<Name>.1` of query parameters, in order. */
export function list(p: Params, prefix: string): string[] {
  const out: [number, string][] = [];
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(?:[A-Za-z]+\\.)?(\\d+)$`);
  for (const [k, v] of Object.entries(p)) {
    const m = re.exec(k);
    if (m) out.push([Number(m[1]), v]);
  }
  return out.sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}
/** Structures of a numbered list: `prefix.N.Field` (with an optional `member`/`<Name>` step) → { Field: value }. */
export function structs(p: Params, prefix: string): Params[] {
  const byIndex = new Map<number, Params>();
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(?:[A-Za-z]+\\.)?(\\d+)\\.(.+)$`);
  for (const [k, v] of Object.entries(p)) {
    const m = re.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (!byIndex.has(i)) byIndex.set(i, {});
    byIndex.get(i)![m[2]!] = v;
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

export class AwsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Answer {
  status: number;
  contentType: string;
  /** Text, or bytes (S3's objects). */
  body: string | Buffer;
  /** More response headers (S3's ETag, Location …). */
  headers?: Record<string, string>;
}
export const requestId = () => crypto.randomUUID();

/** EC2's own XML: `<ActionResponse>` with `requestId`, errors in `<Response><Errors>`. */
export function ec2Answer(action: string, result: Record<string, XmlValue>): Answer {
  return {
    status: 200,
    contentType: 'text/xml;charset=UTF-8',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>${requestId()}</requestId>${xml(result)}</${action}Response>`,
  };
}
export const ec2Error = (e: AwsError): Answer => ({
  status: e.status,
  contentType: 'text/xml;charset=UTF-8',
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${esc(e.code)}</Code><Message>${esc(e.message)}</Message></Error></Errors><RequestID>${requestId()}</RequestID></Response>`,
});

/** AWS query: `<ActionResponse><ActionResult>…</ActionResult><ResponseMetadata>`, errors in `<ErrorResponse>`. */
export function queryAnswer(ns: string, action: string, result: Record<string, XmlValue> | null): Answer {
  const inner = result ? `<${action}Result>${xml(result)}</${action}Result>` : '';
  return {
    status: 200,
    contentType: 'text/xml',
    body: `<${action}Response xmlns="${ns}">${inner}<ResponseMetadata><RequestId>${requestId()}</RequestId></ResponseMetadata></${action}Response>`,
  };
}
export const queryError = (ns: string, e: AwsError): Answer => ({
  status: e.status,
  contentType: 'text/xml',
  body: `<ErrorResponse xmlns="${ns}"><Error><Type>Sender</Type><Code>${esc(e.code)}</Code><Message>${esc(e.message)}</Message></Error><RequestId>${requestId()}</RequestId></ErrorResponse>`,
});

export const jsonAnswer = (version: '1.0' | '1.1', body: unknown): Answer => ({
  status: 200,
  contentType: `application/x-amz-json-${version}`,
  body: JSON.stringify(body),
});
/** AWS JSON errors: `__type` with the shape name; query-compatible services also send `x-amzn-query-error`. */
export const jsonError = (version: '1.0' | '1.1', e: AwsError, prefix = ''): Answer => ({
  status: e.status,
  contentType: `application/x-amz-json-${version}`,
  body: JSON.stringify({ __type: `${prefix}${e.code}`, message: e.message }),
});

/** Tag filters of the query APIs: `tag:Key` with values, `tag-key`. */
export function matchesTagFilter(tags: Record<string, string>, name: string, values: string[]): boolean | undefined {
  if (name.startsWith('tag:')) {
    const v = tags[name.slice(4)];
    return v !== undefined && (values.length === 0 || values.includes(v));
  }
  if (name === 'tag-key') return values.some((k) => k in tags);
  return undefined;
}
