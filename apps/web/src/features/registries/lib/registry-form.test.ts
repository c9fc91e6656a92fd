import { describe, expect, it } from 'vitest';
import { ECR_REGIONS, registryMessages, type DockerRegistry } from '@gantry/contracts';
import {
  credentialsToSend,
  emptyRegistryForm,
  registryFormFrom,
  serverFieldErrors,
  switchProvider,
  validateRegistryForm,
  type RegistryFormState,
} from './registry-form';

const form = (over: Partial<RegistryFormState>): RegistryFormState => ({ ...emptyRegistryForm(), ...over });
const errorsOf = (f: RegistryFormState, editing = false) => {
  const r = validateRegistryForm(f, editing);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('registry form: per-provider validation', () => {
  it('needs a name following the rule and a provider', () => {
    expect(errorsOf(form({}))).toMatchObject({ name: registryMessages.required('Registry name'), provider: registryMessages.required('Docker provider') });
    expect(errorsOf(form({ name: 'My_Registry', provider: 'Dockerhub' })).name).toBe(registryMessages.nameRule);
  });

  it("refuses an unknown provider with 'Not supported docker provider type'", () => {
    expect(errorsOf(form({ name: 'r', provider: 'Quay' })).provider).toBe('Not supported docker provider type');
  });

  it('Docker Hub needs a username and a password', () => {
    expect(errorsOf(form({ name: 'hub', provider: 'Dockerhub' }))).toMatchObject({
      docker_username: 'Username is required',
      docker_password: 'Password or access token is required',
    });
  });

  it('ECR needs a 12-digit account id, a listed region, a key id and a secret; the first region is the default', () => {
    const f = switchProvider(form({ name: 'ecr' }), 'Ecr');
    expect(f.credentials.aws_region).toBe(ECR_REGIONS[0]!.id);
    const errors = errorsOf({ ...f, credentials: { ...f.credentials, aws_account_id: '1234' } });
    expect(errors).toMatchObject({
      aws_account_id: registryMessages.awsAccountId,
      aws_access_key_id: 'Access key id is required',
      aws_secret_access_key: 'Secret access key is required',
    });
    expect(errors.aws_region).toBeUndefined();
    expect(errorsOf({ ...f, credentials: { aws_region: 'mars-1' } }).aws_region).toBe(registryMessages.awsRegion);
  });

  it('GitLab needs a registry host, a hierarchy type (groups by default), an id and the token', () => {
    const f = switchProvider(form({ name: 'gl' }), 'GitlabContainerRegistry');
    expect(f.credentials.gitlab_hierarchy_type).toBe('groups');
    expect(errorsOf({ ...f, credentials: { ...f.credentials, registry_url: 'not a host/ !' } })).toMatchObject({
      registry_url: registryMessages.registryUrl,
      gitlab_id: 'Group or project id is required',
      docker_username: 'Token name is required',
      docker_password: 'Token value is required',
    });
  });

  it('a Registry v2 needs its URL, a username and a password', () => {
    expect(errorsOf(form({ name: 'local', provider: 'DockerRegistryV2', credentials: { registry_url: 'http://127.0.0.1:5000' } }))).toEqual({
      docker_username: 'Username is required',
      docker_password: 'Password or token is required',
    });
    const ok = validateRegistryForm(
      form({
        name: 'local',
        provider: 'DockerRegistryV2',
        credentials: { registry_url: 'http://127.0.0.1:5000', docker_username: 'me', docker_password: 'pw' },
      }),
      false,
    );
    expect(ok).toMatchObject({
      ok: true,
      mode: 'create',
      body: {
        provider: 'DockerRegistryV2',
        credentials: [
          { key: 'registry_url', value: 'http://127.0.0.1:5000', sensitive: false },
          { key: 'docker_username' },
          { key: 'docker_password', sensitive: true },
        ],
      },
    });
  });
});

describe('registry form: trimming', () => {
  it('trims credentials and the name before submit, and leaves empty optional ones out', () => {
    const r = validateRegistryForm(
      form({
        name: '  hub  ',
        provider: 'Dockerhub',
        isDefault: true,
        credentials: { docker_username: '  octo ', docker_password: '\tsecret\n', registry_url: 'stale' },
      }),
      false,
    );
    expect(r).toEqual({
      ok: true,
      mode: 'create',
      body: {
        name: 'hub',
        isDefault: true,
        provider: 'Dockerhub',
        credentials: [
          { key: 'docker_username', value: 'octo', sensitive: false },
          { key: 'docker_password', value: 'secret', sensitive: true },
        ],
      },
    });
  });

  it('a value of spaces only counts as missing', () => {
    expect(errorsOf(form({ name: 'hub', provider: 'Dockerhub', credentials: { docker_username: '   ', docker_password: 'x' } })).docker_username).toBe(
      'Username is required',
    );
  });
});

describe('registry form: the sensitive placeholder on edit', () => {
  const stored: DockerRegistry = {
    registryName: 'hub',
    isDefault: true,
    provider: 'Dockerhub',
    credentials: [
      { key: 'docker_username', value: 'octo', sensitive: false },
      { key: 'docker_password', value: '(sensitive)', sensitive: true },
    ],
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('starts sensitive fields empty (shown with the placeholder) and others with their value', () => {
    expect(registryFormFrom(stored)).toEqual({
      name: 'hub',
      provider: 'Dockerhub',
      isDefault: true,
      credentials: { docker_username: 'octo', docker_password: '' },
    });
  });

  it('does not send an unchanged sensitive value, nor one typed as the placeholder, and does not require it', () => {
    const untouched = validateRegistryForm(registryFormFrom(stored), true);
    expect(untouched).toEqual({
      ok: true,
      mode: 'edit',
      body: { isDefault: true, credentials: [{ key: 'docker_username', value: 'octo', sensitive: false }] },
    });
    expect(credentialsToSend('Dockerhub', { docker_username: 'octo', docker_password: ' (sensitive) ' }, true)).toEqual([
      { key: 'docker_username', value: 'octo', sensitive: false },
    ]);
  });

  it('sends a changed sensitive value, trimmed', () => {
    const f = registryFormFrom(stored);
    const r = validateRegistryForm({ ...f, isDefault: false, credentials: { ...f.credentials, docker_password: ' n3w ' } }, true);
    expect(r).toEqual({
      ok: true,
      mode: 'edit',
      body: {
        isDefault: false,
        credentials: [
          { key: 'docker_username', value: 'octo', sensitive: false },
          { key: 'docker_password', value: 'n3w', sensitive: true },
        ],
      },
    });
  });

  it('still requires the non-sensitive fields on edit', () => {
    const f = registryFormFrom(stored);
    expect(errorsOf({ ...f, credentials: { docker_username: '' } }, true)).toEqual({ docker_username: 'Username is required' });
  });

  it('a create sends the placeholder as a real value (there is nothing stored to keep)', () => {
    expect(errorsOf(form({ name: 'hub', provider: 'Dockerhub', credentials: { docker_username: 'a' } }), false).docker_password).toBe(
      'Password or access token is required',
    );
  });
});

describe('server field errors', () => {
  it('puts name, credential keys and indexed credential paths on their inputs', () => {
    const sent = [
      { key: 'registry_url', value: 'x', sensitive: false },
      { key: 'docker_password', value: 'y', sensitive: true },
    ];
    expect(
      serverFieldErrors(
        { name: ['taken'], 'credentials.1.value': ['bad password'], 'credentials.registry_url': ['unreachable'], credentials: ['too many'] },
        sent,
      ),
    ).toEqual({
      name: 'taken',
      docker_password: 'bad password',
      registry_url: 'unreachable',
      _: 'too many',
    });
  });
});
