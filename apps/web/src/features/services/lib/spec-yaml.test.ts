import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { toYamlDocuments } from './spec-yaml';

describe('the Kubernetes Spec as YAML', () => {
  const objects = [
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { 'app.kubernetes.io/managed-by': 'gantry' } }, spec: { replicas: 2 } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 8080, targetPort: 8080 }] } },
  ];

  it('writes one document per object, separated by ---, that reads back as the same objects', () => {
    const text = toYamlDocuments(objects);
    expect(text).toContain('kind: Deployment\n');
    expect(text).toContain('app.kubernetes.io/managed-by: gantry');
    expect(text.split('\n---\n')).toHaveLength(2);
    expect(text).not.toContain('{');
    expect(parseAllDocuments(text).map((d) => d.toJS())).toEqual(objects);
  });
});
