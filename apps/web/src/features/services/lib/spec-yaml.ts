import { stringify } from 'yaml';

/** The objects as `kubectl get -o yaml` shows them: one YAML document each, separated by `---`. */
export const toYamlDocuments = (objects: object[]) => objects.map((o) => stringify(o, { lineWidth: 0 }).trimEnd()).join('\n---\n');
