import { describe, expect, it } from 'vitest';
import { clusterMessages, type Cluster } from '@gantry/contracts';
import { clusterFormFrom, emptyClusterForm, serverFieldErrors, validateClusterForm, type ClusterFormState } from './cluster-form';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const form = (over: Partial<ClusterFormState>): ClusterFormState => ({
  ...emptyClusterForm(),
  name: 'prod',
  endpoint: 'https://10.0.0.1:6443',
  apiToken: 'tok',
  ...over,
});
const errorsOf = (f: ClusterFormState, editing = false) => {
  const r = validateClusterForm(f, editing);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

const stored: Cluster = {
  id: 'prod',
  name: 'prod',
  endpoint: 'https://10.0.0.1:6443',
  apiToken: '(sensitive)',
  type: 'personal',
  associatedNamespace: 'team-a',
  caCertificate: CA,
  projectId: 'p1',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('cluster form: required fields and rules', () => {
  it('needs a name, an endpoint and a token, with the contracts messages', () => {
    expect(errorsOf(emptyClusterForm())).toEqual({
      name: clusterMessages.nameRequired,
      endpoint: clusterMessages.endpointRequired,
      apiToken: clusterMessages.tokenRequired,
    });
  });

  it('applies the name, endpoint and CA rules', () => {
    expect(errorsOf(form({ name: 'Prod_1', endpoint: 'ftp://x', caCertificate: 'not a pem' }))).toEqual({
      name: clusterMessages.nameRule,
      endpoint: clusterMessages.endpointRule,
      caCertificate: clusterMessages.caRule,
    });
  });

  it('puts a 400 answer’s fields on the form (associatedNamespace → the namespace field)', () => {
    expect(serverFieldErrors({ associatedNamespace: ['bad ns'], endpoint: ['unreachable', 'x'], other: ['?'] })).toEqual({
      namespace: 'bad ns',
      endpoint: 'unreachable',
      _: '?',
    });
  });
});

describe('cluster form: the namespace switch', () => {
  it('does not send the namespace while the switch is off, whatever the field holds', () => {
    const r = validateClusterForm(form({ associate: false, namespace: 'NOT valid' }), false);
    expect(r).toEqual({ ok: true, mode: 'create', body: { name: 'prod', endpoint: 'https://10.0.0.1:6443', apiToken: 'tok', type: 'personal' } });
  });

  it('validates and sends it (trimmed) when the switch is on', () => {
    expect(errorsOf(form({ associate: true, namespace: '' })).namespace).toBe(clusterMessages.namespaceRule);
    expect(errorsOf(form({ associate: true, namespace: 'abc' })).namespace).toBe(clusterMessages.namespaceRule);
    expect(errorsOf(form({ associate: true, namespace: '-team-a' })).namespace).toBe(clusterMessages.namespaceRule);
    const r = validateClusterForm(form({ associate: true, namespace: ' team-a ' }), false);
    expect(r).toMatchObject({ ok: true, body: { associatedNamespace: 'team-a' } });
  });

  it('on edit, switching it off leaves the namespace out', () => {
    const r = validateClusterForm({ ...clusterFormFrom(stored), associate: false }, true);
    expect(r.ok && 'associatedNamespace' in r.body).toBe(false);
  });
});

describe('cluster form: trimming', () => {
  it('trims name, endpoint, token, namespace and CA before submit, and leaves an empty CA out', () => {
    const r = validateClusterForm(form({ name: '  prod ', endpoint: ' https://k.example.com ', apiToken: '\ttok\n', caCertificate: `\n${CA}\n\n` }), false);
    expect(r).toEqual({
      ok: true,
      mode: 'create',
      body: { name: 'prod', endpoint: 'https://k.example.com', apiToken: 'tok', caCertificate: CA, type: 'personal' },
    });
    const noCa = validateClusterForm(form({ caCertificate: '   ' }), false);
    expect(noCa.ok && 'caCertificate' in noCa.body).toBe(false);
  });

  it('a token of spaces only is missing on create', () => {
    expect(errorsOf(form({ apiToken: '   ' })).apiToken).toBe(clusterMessages.tokenRequired);
  });
});

describe('cluster form: the sensitive token on edit', () => {
  it('starts from the stored cluster with the token empty (shown as the placeholder)', () => {
    expect(clusterFormFrom(stored)).toEqual({
      name: 'prod',
      endpoint: 'https://10.0.0.1:6443',
      apiToken: '',
      caCertificate: CA,
      associate: true,
      namespace: 'team-a',
    });
  });

  it('does not resend an untouched token, nor one typed as "(sensitive)", and does not require it', () => {
    const untouched = validateClusterForm(clusterFormFrom(stored), true);
    expect(untouched).toEqual({
      ok: true,
      mode: 'edit',
      body: { endpoint: 'https://10.0.0.1:6443', associatedNamespace: 'team-a', caCertificate: CA, type: 'personal' },
    });
    const placeholder = validateClusterForm({ ...clusterFormFrom(stored), apiToken: ' (sensitive) ' }, true);
    expect(placeholder.ok && 'apiToken' in placeholder.body).toBe(false);
  });

  it('sends a changed token, trimmed; the name is never part of an update', () => {
    const r = validateClusterForm({ ...clusterFormFrom(stored), name: 'renamed', apiToken: ' n3w ' }, true);
    expect(r).toMatchObject({ ok: true, mode: 'edit', body: { apiToken: 'n3w' } });
    expect(r.ok && 'name' in r.body).toBe(false);
  });

  it('a create sends "(sensitive)" as a real token (there is nothing stored to keep)', () => {
    expect(validateClusterForm(form({ apiToken: '(sensitive)' }), false)).toMatchObject({ ok: true, body: { apiToken: '(sensitive)' } });
  });
});
