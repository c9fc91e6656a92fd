import { badRequest } from './status.js';
import type { KObj } from './store.js';

type Req = { key: string; op: 'in' | 'notin' | 'exists' | '!exists'; values: string[] };

/** Splits on commas outside parentheses (`a in (x,y),b=c`). */
function terms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter(Boolean);
}

/** A label selector in the API's string form; answers a predicate on an object's labels. */
export function parseLabelSelector(s: string | null): (labels: Record<string, string> | undefined) => boolean {
  if (!s) return () => true;
  const reqs: Req[] = terms(s).map((t) => {
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(t);
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((v) => v.trim()) };
    m = /^([\w./-]+)\s*(!=|==|=)\s*([\w./-]*)$/.exec(t);
    if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]] };
    m = /^(!?)([\w./-]+)$/.exec(t);
    if (m) return { key: m[2], op: m[1] ? '!exists' : 'exists', values: [] };
    throw badRequest(`unable to parse requirement: found '${t}', expected: in, notin, =, ==, !=, gt, lt`);
  });
  return (labels = {}) =>
    reqs.every((r) => {
      const v = labels[r.key];
      switch (r.op) {
        case 'in':
          return v !== undefined && r.values.includes(v);
        case 'notin':
          return v === undefined || !r.values.includes(v);
        case 'exists':
          return v !== undefined;
        case '!exists':
          return v === undefined;
      }
    });
}

/** The fields each kind can be selected on (the API server rejects others, as here). */
const FIELDS: Record<string, string[]> = {
  Pod: [
    'metadata.name',
    'metadata.namespace',
    'status.phase',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'metadata.name',
    'metadata.namespace',
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Secret: ['metadata.name', 'metadata.namespace', 'type'],
  Namespace: ['metadata.name', 'status.phase'],
  Node: ['metadata.name', 'spec.unschedulable'],
};

const fieldValue = (o: KObj, path: string): string => {
  if (path === 'source') return o.source?.component ?? '';
  const v = path.split('.').reduce<any>((cur, k) => (cur == null ? undefined : cur[k]), o);
  return v == null ? '' : String(v);
};

export function parseFieldSelector(s: string | null, kind: string): (o: KObj) => boolean {
  if (!s) return () => true;
  const reqs = terms(s).map((t) => {
    const m = /^([\w.]+)\s*(!=|==|=)\s*(.*)$/.exec(t);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${t}'`);
    const allowed = FIELDS[kind] ?? ['metadata.name', 'metadata.namespace'];
    if (!allowed.includes(m[1])) throw badRequest(`field label not supported: ${m[1]}`);
    return { path: m[1], neg: m[2] === '!=', value: m[3] };
  });
  return (o) => reqs.every((r) => (fieldValue(o, r.path) === r.value) !== r.neg);
}
