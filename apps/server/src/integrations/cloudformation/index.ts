/**
 * CloudFormation engine adapter (DESIGN §5 "Infrastructure engines"): a stack per environment,
 * each environment resource a nested stack (`AWS::CloudFormation::Stack`) whose template is
 * uploaded to `gantry-templates-<awsAccountId>-<region>` (made when missing). Clients take the
 * call's credentials and region; endpoints come from the SDK's chain (`AWS_ENDPOINT_URL_CLOUDFORMATION`,
 * `AWS_ENDPOINT_URL_S3`). Statuses are CloudFormation's own. How the deployments module uses it:
 *
 *  1. `const cfn = createCloudFormationAdapter()` once (tests: `{ pollMs: 1 }`, stubs through
 *     aws-sdk-client-mock). Every call takes a `StackTarget`: `{ stackName: stackNameFor(stage.name,
 *     stage.id), region: stage.awsRegion, credentials }` — credentials in either form, e.g. what
 *     `cloudAccounts.credentialsFor(projectId, 'aws', stage.awsAccountId)` answers.
 *  2. Deploy: `cfn.deploy({ ...target, awsAccountId, stageId, deploymentId, resources, onStatus,
 *     onEvents, signal })`, resources as `NestedResource` = `{ name, templateBody (the file
 *     components.extract() answers as `template`), parameters: [{ key, value, reference, sensitive }] }`.
 *     Templates go to `<stageId>/<deploymentId>/<resource>.template` (kept 30 days). A reference
 *     `res.Out` becomes `Fn::GetAtt [res, Outputs.Out]`; sensitive literals travel as NoEcho
 *     parameters of the parent. Bad names, templates, references or cycles throw `TemplateError`
 *     (a 400) before anything is uploaded. Answers `{ status, succeeded, changed, resources:
 *     { name: status }, logs }` (it does not throw on a failed stack: `succeeded` is false, e.g.
 *     ROLLBACK_COMPLETE); `logs` is the Deployment `logs` shape. "No updates are to be performed"
 *     is `{ changed: false, succeeded: true }`. A stack left in ROLLBACK_COMPLETE is deleted and
 *     created anew.
 *  3. Undeploy: `cfn.undeploy({ ...target, onStatus, onEvents, signal })` → DELETE_COMPLETE or
 *     DELETE_FAILED with its logs. Nested stacks go with their environment only.
 *  4. Cancel (the user's Cancel): `cfn.cancel(target)` — CancelUpdateStack on UPDATE_IN_PROGRESS,
 *     DeleteStack on CREATE_IN_PROGRESS (a create cannot be cancelled); the running `deploy` keeps
 *     following and answers the end (UPDATE_ROLLBACK_COMPLETE, DELETE_COMPLETE; `succeeded: false`).
 *     Aborting `signal` only stops following: the call rejects with `PollingAborted` (name
 *     'AbortError', `lastStatus`) — so on the user's Cancel call `cancel()`, not abort.
 *  5. Continue Rollback (on UPDATE_ROLLBACK_FAILED): `cfn.continueRollback({ ...target, resourcesToSkip? })`,
 *     then `cfn.watch({ ...target, onStatus, onEvents })` → UPDATE_ROLLBACK_COMPLETE (`succeeded`).
 *  6. Reads: `cfn.status(target)` (null: no stack), `cfn.resources(target)` → `{ [resource]:
 *     nested stack status }`, `cfn.events(target)` (contracts' StackEvent, newest first; nested
 *     stacks' events as `resource/LogicalId`), `cfn.outputs(target)` → `{ [resource]: { key, value }[] }`
 *     read from the parent's re-exported outputs.
 */
export {
  createCloudFormationAdapter,
  stackNameFor,
  type CloudFormationAdapter,
  type CloudFormationAdapterOptions,
  type StackTarget,
  type Following,
  type DeployInput,
  type StackOutcome,
  type DeployOutcome,
  type CancelOutcome,
  type ResourceOutputs,
} from './adapter.js';
export { TemplateError, parseTemplate, parameterNames, outputNames, CFN_YAML_TAGS } from './child-template.js';
export { buildParentTemplate, parentTemplate, type NestedResource, type ParentTemplate } from './parent-template.js';
export { toStackEvent, errorLogsByResource, type StackEventView, type ErrorLogs } from './events.js';
export { PollingAborted } from './stack.js';
export { templateBucketFor } from './bucket.js';
export { toCredentials, type AwsCredentials, type AwsEnvCredentials } from './clients.js';

// The lower-level steps modules/deployments/cloudformation-engine.ts composes itself.
export { clientsFor, sessionFromEnv, type AwsSession, type CfnClients } from './clients.js';
export { uploadTemplates, ensureBucket } from './bucket.js';
export {
  TERMINAL,
  describeStack,
  deletedStackId,
  eventIdsOf,
  stackAndNestedEvents,
  createOrUpdate,
  followStack,
  deleteStack,
  cancelUpdate,
  continueRollback,
  nestedStacks,
} from './stack.js';
