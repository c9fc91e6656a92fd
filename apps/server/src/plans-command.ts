import type { Db } from './platform/db.js';
import { createBillingService } from './modules/billing/billing.service.js';
import { createBillingStore } from './modules/billing/billing.store.js';
import { createProjectsStore } from './modules/projects/projects.store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `gantry plans list` and `gantry plans set <project id or name> <PLAN>`: how a self-hosting
 * instance admin gives a project its plan (no payment provider here). Answers what it printed.
 */
export async function plansCommand(db: Db, args: string[]): Promise<string> {
  const billing = createBillingService({ store: createBillingStore(db) });
  await billing.ensurePlans();
  const [sub, project, plan] = args;
  if (sub === 'list') return (await billing.plans()).map((p) => `${p.id}\t${p.name}`).join('\n');
  if (sub !== 'set' || !project || !plan) throw new Error('usage: gantry plans set <project id or name> <PLAN>   |   gantry plans list');
  const projects = createProjectsStore(db);
  const found = UUID.test(project) ? [await projects.byId(project)].filter((p) => !!p) : await projects.byName(project);
  if (!found.length) throw new Error(`No project ${project}`);
  if (found.length > 1) throw new Error(`${found.length} projects are named ${project}; name it by id: ${found.map((p) => p.id).join(', ')}`);
  const target = found[0]!;
  await billing.setPlan(target.id, plan.toUpperCase());
  const sub2 = await billing.subscription(target.id);
  return `${target.name} (${target.id}) is on ${sub2.plan.name}`;
}
