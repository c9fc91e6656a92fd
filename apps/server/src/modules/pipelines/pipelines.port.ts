/** What other modules see of pipelines and builds: the module's api (`needs.pipelines`) and its parts' types. */
export type { PipelinesApi } from './pipelines.module.js';
export type { PipelinesService } from './pipelines.service.js';
export type { ComponentBuilds } from '../builds/component-packaging.js';
