import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import {
  artifactStepProblem,
  parseComponentSchemaText,
  validatePipelineSpec,
  versionLabel,
  VENDOR_VERSION_PREFIX,
  isVendorVersion,
  ComponentType,
  InfraCloudProvider,
  IacTool,
  type ComponentBody,
  type UpdateComponentBody,
  type Component,
  type ComponentDetails,
  type ComponentVersion,
  type ComponentVersionSchema,
  type ComponentBuilding,
  type Permission,
  type ParsedComponentSchema,
} from '@gantry/contracts';
import { Conflict, Forbidden, NotFound, Validation } from '../../platform/errors.js';
import type { ComponentBuilds } from '../pipelines/pipelines.port.js';
import type { PipelinesService } from '../pipelines/pipelines.port.js';
import type { ComponentsStore, ComponentRow } from './components.store.js';

/** Names of the environments that use a component; the environments module plugs in here. */
export type UsedByEnvironments = (componentId: string) => Promise<string[]>;

type Body = ComponentBody & { infrastructureAsCodeTool: 'terraform' | 'cloudformation' };
type UpdateBody = UpdateComponentBody & { infrastructureAsCodeTool: 'terraform' | 'cloudformation' };

/** What a vendor folder's `component.json` says about the component (the rest are its module files). */
const VendorMeta = z.object({
  name: z.string().min(3).max(30),
  type: ComponentType,
  description: z.string().min(1),
  cloudProvider: InfraCloudProvider,
  infrastructureAsCodeTool: IacTool.default('terraform'),
  /** CloudFormation: the template's file name in the folder. */
  template: z.string().optional(),
});
const vendorMeta = (dir: string) => VendorMeta.parse(JSON.parse(fs.readFileSync(path.join(dir, 'component.json'), 'utf8')));
const VENDOR_IGNORED = new Set(['component.json', '.terraform', '.terraform.lock.hcl']);

export function createComponentsService(deps: {
  store: ComponentsStore;
  builds: ComponentBuilds;
  pipelines: Pick<PipelinesService, 'get' | 'spec' | 'byIdAnyProject'>;
  /** A user's permission in a project (the projects service answers it). */
  permission: (projectId: string, userId: string) => Promise<Permission | undefined>;
  /** Project names by id (the projects service): owners and grantees of shared components. */
  projectNames: (ids: string[]) => Promise<Map<string, string>>;
  usedByEnvironments?: UsedByEnvironments;
  /** Where the shipped vendor components live (one folder each). */
  vendorRoot: string;
}) {
  const { store, builds, pipelines } = deps;
  const usedByEnvironments = deps.usedByEnvironments ?? (async () => []);

  async function visible(projectId: string, id: string) {
    const row = await store.visibleById(projectId, id);
    if (!row) throw new NotFound('Component not found');
    return row;
  }

  /** The component, if the project owns it and it is not a vendor one (edit, remove, share). */
  async function owned(projectId: string, id: string) {
    const row = await visible(projectId, id);
    if (row.isPublic) throw new Forbidden('Vendor components cannot be edited, removed or shared');
    if (row.projectId !== projectId) throw new Forbidden('Only the project that owns this component can edit, remove or share it');
    return row;
  }

  async function toComponents(projectId: string, rows: ComponentRow[]): Promise<Component[]> {
    const grantRows = await store.grants(rows.filter((r) => r.projectId === projectId).map((r) => r.id));
    const names = await deps.projectNames([
      ...new Set([...rows.flatMap((r) => (r.projectId && r.projectId !== projectId ? [r.projectId] : [])), ...grantRows.map((g) => g.projectId)]),
    ]);
    // grants by the grantee project's name (a project deleted since has no grant left: its rows cascade)
    const grants = grantRows
      .flatMap((g) => (names.has(g.projectId) ? [{ ...g, projectName: names.get(g.projectId)! }] : []))
      .sort((a, b) => (a.projectName < b.projectName ? -1 : a.projectName > b.projectName ? 1 : 0));
    const owners = names;
    const pipelineRows = new Map(
      await Promise.all(
        [...new Set(rows.flatMap((r) => (r.pipelineId ? [r.pipelineId] : [])))].map(async (id) => [id, await pipelines.byIdAnyProject(id)] as const),
      ),
    );
    return rows.map((r) => {
      const mine = r.projectId === projectId;
      const ownerName = r.projectId && !mine ? (owners.get(r.projectId) ?? '') : null;
      const pipeline = r.pipelineId ? pipelineRows.get(r.pipelineId) : undefined;
      return {
        id: r.id,
        name: r.name,
        type: r.type,
        description: r.description,
        cloudProvider: r.cloudProvider,
        infrastructureAsCodeTool: r.infrastructureAsCodeTool,
        pipelineId: r.pipelineId,
        pipelineName: pipeline?.name ?? null,
        repositoryUrl: pipeline?.repositoryUrl ?? null,
        branchFilter: pipeline?.branchFilter ?? null,
        artifactStep: r.artifactStep,
        isPublic: r.isPublic,
        projectId: r.projectId,
        providedBy: ownerName !== null ? `Provided by project ${ownerName}` : null,
        editable: mine && !r.isPublic,
        accessList: mine
          ? grants.filter((g) => g.componentId === r.id).map((g) => ({ assigneeType: 'shared' as const, assigneeId: g.projectId, assigneeName: g.projectName }))
          : r.projectId
            ? [{ assigneeType: 'parent' as const, assigneeId: r.projectId, assigneeName: ownerName ?? '' }]
            : [],
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      };
    });
  }

  /** The pipeline must be the project's, and the step one of its terraform-build / cfn-component steps (its current spec). */
  async function checkPipeline(
    projectId: string,
    body: { pipelineId: string; artifactStep: string; infrastructureAsCodeTool: 'terraform' | 'cloudformation' },
  ) {
    try {
      await pipelines.get(projectId, body.pipelineId);
    } catch (err) {
      if (err instanceof NotFound)
        throw new Validation('Please select a pipeline of this project', { pipelineId: ['Please select a pipeline of this project'] });
      throw err;
    }
    const { gantryYaml } = await pipelines.spec(projectId, body.pipelineId);
    const { errors, spec } = validatePipelineSpec(gantryYaml);
    if (errors.length) throw new Validation(`The pipeline's spec is invalid: ${errors[0]}`, { artifactStep: errors });
    const problem = artifactStepProblem(spec, body.artifactStep, body.infrastructureAsCodeTool);
    if (problem) throw new Validation(problem, { artifactStep: [problem] });
  }

  const vendorVersionId = (row: ComponentRow) => `${VENDOR_VERSION_PREFIX}${row.vendorHash}`;

  function vendorVersion(row: ComponentRow): ComponentVersion {
    const hash = row.vendorHash ?? '';
    return {
      id: vendorVersionId(row),
      buildNumber: null,
      version: versionLabel(hash),
      isLatestVersion: true,
      status: 'SUCCEEDED',
      stopDate: row.updatedAt.toISOString(),
      pipelineId: null,
      metadata: { commit: { name: hash, message: 'Shipped with Gantry', version: versionLabel(hash), user: { name: 'Gantry', avatar: null } } },
    };
  }

  async function versionsOf(row: ComponentRow): Promise<ComponentVersion[]> {
    if (row.isPublic && row.vendorHash) return [vendorVersion(row)];
    if (!row.pipelineId || !row.artifactStep) return [];
    const list = await builds.versions(row.pipelineId, row.artifactStep);
    return list.map((b, i) => ({
      id: b.buildId,
      buildNumber: b.number,
      version: versionLabel(b.commitSha ?? b.buildId),
      isLatestVersion: i === 0,
      status: 'SUCCEEDED' as const,
      stopDate: b.stopDate?.toISOString() ?? null,
      pipelineId: row.pipelineId,
      metadata: {
        commit: b.commitSha
          ? {
              name: b.commitSha,
              message: b.commitMessage ?? '',
              version: versionLabel(b.commitSha),
              user: { name: b.commitAuthor ?? '', avatar: b.commitAvatar },
            }
          : null,
      },
    }));
  }

  /** A version of the component by id ('latest' = the newest); NotFound when it is none of its versions. */
  async function versionOf(row: ComponentRow, versionId: string) {
    const versions = await versionsOf(row);
    const v = versionId.toLowerCase() === 'latest' ? versions[0] : versions.find((x) => x.id === versionId);
    if (!v) throw new NotFound('Component version not found');
    return v;
  }

  async function contentOf(row: ComponentRow, v: ComponentVersion): Promise<{ schema: ParsedComponentSchema; readme: string | null }> {
    if (isVendorVersion(v.id)) {
      const parsed = parseComponentSchemaText(row.vendorSchema ?? '');
      if (!parsed.schema) throw new NotFound('Component version not found');
      return { schema: parsed.schema, readme: row.vendorReadme };
    }
    const content = await builds.content(v.id, row.artifactStep!);
    if (!content) throw new NotFound('The schema of this version is not available');
    return content;
  }

  return {
    async list(projectId: string): Promise<Component[]> {
      return toComponents(projectId, await store.visible(projectId));
    },

    async details(projectId: string, id: string, buildId?: string): Promise<ComponentDetails> {
      const row = await visible(projectId, id);
      const [component] = await toComponents(projectId, [row]);
      const versions = buildId ? [await versionOf(row, buildId)] : (await versionsOf(row)).slice(0, 1);
      const v = versions[0];
      const content = v ? await contentOf(row, v).catch(() => null) : null;
      return { ...component!, version: v?.version ?? null, buildId: v?.id ?? null, readme: content?.readme ?? null, schema: content?.schema ?? null };
    },

    /** A component visible to the project, as stored (environments use it to place resources). */
    visibleRow: visible,

    async create(projectId: string, body: Body) {
      if (await store.byName(projectId, body.name)) throw new Conflict(`A component named ${body.name} already exists`);
      await checkPipeline(projectId, body);
      try {
        const row = await store.insert({
          projectId,
          name: body.name,
          type: body.type,
          description: body.description,
          cloudProvider: body.cloudProvider,
          infrastructureAsCodeTool: body.infrastructureAsCodeTool,
          pipelineId: body.pipelineId,
          artifactStep: body.artifactStep,
        });
        return { componentId: row.id };
      } catch (err) {
        if ((err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505') {
          throw new Conflict(`A component named ${body.name} already exists`);
        }
        throw err;
      }
    },

    async update(projectId: string, id: string, body: UpdateBody): Promise<Component> {
      const row = await owned(projectId, id);
      if (body.pipelineId !== row.pipelineId || body.artifactStep !== row.artifactStep || body.infrastructureAsCodeTool !== row.infrastructureAsCodeTool) {
        await checkPipeline(projectId, body);
      }
      const next = await store.update(id, {
        type: body.type,
        description: body.description,
        cloudProvider: body.cloudProvider,
        infrastructureAsCodeTool: body.infrastructureAsCodeTool,
        pipelineId: body.pipelineId,
        artifactStep: body.artifactStep,
      });
      return (await toComponents(projectId, [next!]))[0]!;
    },

    async remove(projectId: string, id: string) {
      const row = await owned(projectId, id);
      const envs = await usedByEnvironments(row.id);
      if (envs.length)
        throw new Conflict(`The component is used by the environment${envs.length > 1 ? 's' : ''} ${envs.join(', ')}; remove its resources first`, {
          environments: envs,
        });
      await store.delete(row.id);
    },

    async versions(projectId: string, id: string): Promise<ComponentVersion[]> {
      return versionsOf(await visible(projectId, id));
    },

    /** A component visible to the project and its versions, newest first (a deployment resolves a resource's version). */
    async withVersions(projectId: string, id: string): Promise<{ row: ComponentRow; versions: ComponentVersion[] }> {
      const row = await visible(projectId, id);
      return { row, versions: await versionsOf(row) };
    },

    async versionSchema(projectId: string, id: string, versionId: string): Promise<ComponentVersionSchema> {
      const row = await visible(projectId, id);
      const v = await versionOf(row, versionId);
      const { schema, readme } = await contentOf(row, v);
      return { buildId: v.id, version: v.version, inputs: schema.inputs, outputs: schema.outputs, readme };
    },

    async building(projectId: string, id: string): Promise<ComponentBuilding> {
      const row = await visible(projectId, id);
      return { build: row.pipelineId ? await builds.running(row.pipelineId) : null };
    },

    /** Grants READ on the component to another project of the caller's (owner side only). */
    async share(projectId: string, id: string, userId: string, targetProjectId: string) {
      const row = await owned(projectId, id);
      if (targetProjectId === projectId)
        throw new Validation('A component cannot be shared with its own project', { projectId: ['Please select another project'] });
      if (!(await deps.permission(targetProjectId, userId))) throw new NotFound('Project not found');
      if (!(await store.grant(row.id, targetProjectId))) throw new Conflict('The component is already shared with this project');
      return (await toComponents(projectId, [row]))[0]!;
    },

    async unshare(projectId: string, id: string, targetProjectId: string) {
      const row = await owned(projectId, id);
      if (!(await store.revoke(row.id, targetProjectId))) throw new NotFound('The component is not shared with this project');
      return (await toComponents(projectId, [row]))[0]!;
    },

    /**
     * Unpacks a version's module (Terraform) or template (CloudFormation) into `dest`, for a
     * deployment. Answers the IaC tool and, for CloudFormation, the template's file name.
     */
    async extract(projectId: string, id: string, versionId: string, dest: string) {
      const row = await visible(projectId, id);
      const v = await versionOf(row, versionId);
      if (isVendorVersion(v.id)) {
        await fs.promises.mkdir(dest, { recursive: true });
        await fs.promises.cp(path.join(deps.vendorRoot, row.vendorDir!), dest, { recursive: true, filter: (src) => !VENDOR_IGNORED.has(path.basename(src)) });
      } else if (!(await builds.extract(v.id, row.artifactStep!, dest))) {
        throw new NotFound('The artifact of this version is not available');
      }
      const template = isVendorVersion(v.id)
        ? (vendorMeta(path.join(deps.vendorRoot, row.vendorDir!)).template ?? null)
        : ((await builds.content(v.id, row.artifactStep!))?.template ?? null);
      return { versionId: v.id, version: v.version, infrastructureAsCodeTool: row.infrastructureAsCodeTool, template };
    },

    /** Reads `vendorRoot/<folder>/component.json` + module files and upserts each as a public component. */
    async seedVendor() {
      if (!fs.existsSync(deps.vendorRoot)) return [];
      const seeded: string[] = [];
      for (const folder of fs.readdirSync(deps.vendorRoot).sort()) {
        const dir = path.join(deps.vendorRoot, folder);
        if (!fs.statSync(dir).isDirectory()) continue;
        const meta = vendorMeta(dir);
        if (meta.infrastructureAsCodeTool === 'cloudformation' && !(meta.template && fs.existsSync(path.join(dir, meta.template)))) {
          throw new Error(`vendor component ${folder}: a CloudFormation component names its template file`);
        }
        const schemaText = fs.readFileSync(path.join(dir, 'schema.json'), 'utf8');
        const parsed = parseComponentSchemaText(schemaText);
        if (!parsed.schema) throw new Error(`vendor component ${folder}: ${parsed.errors.join('; ')}`);
        const readme = fs.existsSync(path.join(dir, 'README.md')) ? fs.readFileSync(path.join(dir, 'README.md'), 'utf8') : null;
        await store.upsertVendor({
          name: meta.name,
          type: meta.type,
          description: meta.description,
          cloudProvider: meta.cloudProvider,
          infrastructureAsCodeTool: meta.infrastructureAsCodeTool ?? 'terraform',
          vendorDir: folder,
          vendorHash: hashDir(dir),
          vendorSchema: schemaText,
          vendorReadme: readme,
        });
        seeded.push(meta.name);
      }
      return seeded;
    },

    /** Own components per project (the projects list's componentsCount). */
    countsFor: (projectIds: string[]) => store.countsFor(projectIds),
    countsForReads: store.countsForReads,
  };
}
export type ComponentsService = ReturnType<typeof createComponentsService>;

/** A content hash of a folder's files (names and bytes, sorted), the vendor version. */
export function hashDir(dir: string): string {
  const h = crypto.createHash('sha256');
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      if (VENDOR_IGNORED.has(name) && name !== 'component.json') continue;
      const full = path.join(d, name);
      if (fs.statSync(full).isDirectory()) walk(full, `${rel}${name}/`);
      else h.update(`${rel}${name}\0`).update(fs.readFileSync(full)).update('\0');
    }
  };
  walk(dir, '');
  return h.digest('hex').slice(0, 16);
}
