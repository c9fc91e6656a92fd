/**
 * CloudFormation (DESIGN §5 "Infrastructure engines"): the steps modules/deployments/cloudformation-engine.ts composes.
 * A stack per environment, each environment resource a nested stack (`AWS::CloudFormation::Stack`) whose template is
 * uploaded to `gantry-templates-<awsAccountId>-<region>` (made when missing, uploads kept 30 days). Clients take the
 * call's credentials and region; endpoints come from the SDK's chain (`AWS_ENDPOINT_URL_CLOUDFORMATION`,
 * `AWS_ENDPOINT_URL_S3`). Statuses are CloudFormation's own.
 *
 *  - Templates: `buildParentTemplate(resources, { templateUrl, tags })` — a reference `res.Out` becomes
 *    `Fn::GetAtt [res, Outputs.Out]`, a sensitive literal a NoEcho parameter of the parent (its value in `parameters`,
 *    for CreateStack/UpdateStack); bad names, templates, references or cycles throw `TemplateError`.
 *  - Operations: `uploadTemplates` (to `templateLocations`, which the parent template is built from first), `createOrUpdate` (false: "No updates are to be performed"), `deleteStack`,
 *    `cancelUpdate`, `continueRollback`.
 *  - Following: `followStack` follows a stack (by its id once known: a deleted stack answers only by it) and its nested
 *    stacks to a terminal status, telling each new event once (`eventIdsOf`: the events from before), and answers
 *    `{ status, succeeded, resources, logs }` with the failures grouped per resource (`errorLogsByResource`).
 *  - Reads: `describeStack`, `deletedStackId`, `nestedStacks`, `stackAndNestedEvents` (newest first; nested stacks'
 *    events as `resource/LogicalId`).
 */
export { TemplateError, parseTemplate, parameterNames, outputNames, CFN_YAML_TAGS } from './child-template.js';
export { buildParentTemplate, type NestedResource, type ParentTemplate } from './parent-template.js';
export { toStackEvent, errorLogsByResource, type StackEventView, type ErrorLogs } from './events.js';
export { templateBucketFor } from './bucket.js';

export { clientsFor, sessionFromEnv, type AwsCredentials, type AwsSession, type CfnClients } from './clients.js';
export { uploadTemplates, templateLocations, ensureBucket } from './bucket.js';
export {
  TERMINAL,
  describeStack,
  deletedStackId,
  eventIdsOf,
  stackAndNestedEvents,
  createOrUpdate,
  followStack,
  type Following,
  type StackOutcome,
  deleteStack,
  cancelUpdate,
  continueRollback,
  nestedStacks,
} from './stack.js';
