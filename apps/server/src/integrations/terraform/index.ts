/**
 * Terraform engine adapter (DESIGN §5 "Infrastructure engines"): the terraform CLI driven over a
 * generated root module per environment. How the deployments module uses it:
 *
 *  1. Build the root module from the environment's resources: `generateRootModule({ resources,
 *     outputs })` — one module block per resource (`source` = the unpacked artifact directory of
 *     the resource's component version), literal inputs as values, references as
 *     `module.<resource>.<output>`; outputs from `readModuleInterface(dir)` or the component
 *     schema. Invalid names, unknown references and cycles throw `RootModuleError` (a 400).
 *     Write it with `writeRootModule(workDir, root)` (workDir = `<data>/terraform/<stageId>`).
 *  2. `createTerraformRunner({ bin: config.TERRAFORM_BIN, workDir, pluginCacheDir, backend, env:
 *     { ...cloudCredentials, ...root.env }, secrets: [...credentialValues, ...root.secrets],
 *     onLine: store + fan out the log line, signal: the job's cancel })`. Backend: `{ type:
 *     'local', path: <data>/terraform/state/<stageId>.tfstate }` embedded, `{ type: 'pg', connStr:
 *     DATABASE_URL, schemaName: 'tfstate_<stageId>' }` on PostgreSQL.
 *  3. Create plan: `init()` then `plan()` → store `planFile` with the plan row and show
 *     `summary`/`changes` (each change carries its `resource`). Deploy that plan: `apply(planFile)`
 *     applies exactly what was shown (terraform refuses a stale plan: plan again). Quick deploy =
 *     plan + apply in one job.
 *  4. Undeploy an environment: `destroy()`; undeploy a resource: `destroy({ targets:
 *     [moduleAddress(name)] })` (terraform also destroys what depends on it).
 *  5. Resource outputs: `outputs()` from the state, grouped with `outputsByResource()`.
 *  6. Cancel: abort the signal. Terraform gets SIGINT, stops gracefully and releases the state
 *     lock; the call rejects with `AbortedError` only after terraform has exited.
 */
export {
  generateRootModule,
  RootModuleError,
  moduleAddress,
  rootOutputName,
  splitRootOutputName,
  parseReference,
  escapeTemplate,
  TERRAFORM_IDENTIFIER,
  type InputValue,
  type RootModule,
  type RootModuleResource,
  type RootModuleSpec,
  type ModuleOutputDecl,
} from './root-module.js';
export { readModuleInterface, type ModuleInterface } from './module-interface.js';
export {
  createTerraformRunner,
  writeRootModule,
  summarizePlan,
  TerraformError,
  AbortedError,
  BACKEND_FILE,
  GO_GC,
  goMemLimit,
  type TerraformRunner,
  type TerraformRunnerOptions,
  type TerraformBackend,
  type PlanResult,
  type PlanSummary,
  type PlanChange,
  type PlanAction,
  type TerraformOutput,
} from './terraform-runner.js';
export { outputsByResource } from './outputs.js';
