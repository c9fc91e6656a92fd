import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  StageParams,
  ResourceParams,
  OkBody,
  ProjectIdParams,
  Deployment,
  DeploymentHistory,
  DeploymentHistoryQuery,
  DeploymentStarted,
  Plan,
  PlanParams,
  DeploymentParams,
  ResourceOutputs,
  StackEvent,
  DeploymentLogChunk,
  DeploymentTime,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { DeploymentsService } from './deployments.service.js';

const ok = { ok: true as const };

/** Deployments, plans, outputs and logs of an environment, under /ms-engine. */
export function deploymentsRoutes(deps: { deployments: DeploymentsService; guards: Guards }): FastifyPluginAsyncZod {
  const { deployments, guards } = deps;
  const stage = '/projects/:projectId/stages/:stageId';
  return async (app) => {
    const tags = ['deployments'];
    const view = guards.project('view');
    const change = guards.project('change');
    app.post(`${stage}/deploy`, { preHandler: change, schema: { tags, params: StageParams, response: { 202: DeploymentStarted } } }, async (req, reply) =>
      reply.status(202).send(await deployments.deploy(req.params.projectId, req.params.stageId, currentUser(req).id)),
    );
    app.post(`${stage}/undeploy`, { preHandler: change, schema: { tags, params: StageParams, response: { 202: DeploymentStarted } } }, async (req, reply) =>
      reply.status(202).send(await deployments.undeploy(req.params.projectId, req.params.stageId, currentUser(req).id)),
    );
    app.post(
      `${stage}/resources/:resourceName/undeploy`,
      { preHandler: change, schema: { tags, params: ResourceParams, response: { 202: DeploymentStarted } } },
      async (req, reply) =>
        reply.status(202).send(await deployments.undeployResource(req.params.projectId, req.params.stageId, req.params.resourceName, currentUser(req).id)),
    );
    app.post(`${stage}/cancel`, { preHandler: change, schema: { tags, params: StageParams, response: { 200: OkBody } } }, async (req) => {
      await deployments.cancel(req.params.projectId, req.params.stageId);
      return ok;
    });
    app.post(`${stage}/continue-rollback`, { preHandler: change, schema: { tags, params: StageParams, response: { 200: OkBody } } }, async (req) => {
      await deployments.continueRollback(req.params.projectId, req.params.stageId);
      return ok;
    });
    app.get(
      `${stage}/resources/:resourceName/outputs`,
      { preHandler: view, schema: { tags, params: ResourceParams, response: { 200: ResourceOutputs } } },
      (req) => deployments.outputs(req.params.projectId, req.params.stageId, req.params.resourceName),
    );
    app.get(
      `${stage}/deployments`,
      { preHandler: view, schema: { tags, params: StageParams, querystring: DeploymentHistoryQuery, response: { 200: DeploymentHistory } } },
      (req) => deployments.history(req.params.projectId, req.params.stageId, req.query),
    );
    app.get(`${stage}/deployments/:deploymentId`, { preHandler: view, schema: { tags, params: DeploymentParams, response: { 200: Deployment } } }, (req) =>
      deployments.one(req.params.projectId, req.params.stageId, req.params.deploymentId),
    );
    app.get(
      `${stage}/deployments/:deploymentId/logs`,
      { preHandler: view, schema: { tags, params: DeploymentParams, response: { 200: z.object({ chunks: z.array(DeploymentLogChunk) }) } } },
      (req) => deployments.logs(req.params.projectId, req.params.stageId, req.params.deploymentId),
    );
    app.get(
      `${stage}/events`,
      { preHandler: view, schema: { tags, params: StageParams, response: { 200: z.object({ events: z.array(StackEvent) }) } } },
      async (req) => ({
        events: await deployments.events(req.params.projectId, req.params.stageId),
      }),
    );
    app.post(
      `${stage}/plans`,
      { preHandler: change, schema: { tags, params: StageParams, response: { 202: z.object({ planId: z.string() }) } } },
      async (req, reply) => reply.status(202).send(await deployments.createPlan(req.params.projectId, req.params.stageId, currentUser(req).id)),
    );
    app.get(`${stage}/plans/:planId`, { preHandler: view, schema: { tags, params: PlanParams, response: { 200: Plan } } }, (req) =>
      deployments.plan(req.params.projectId, req.params.stageId, req.params.planId),
    );
    app.post(
      `${stage}/plans/:planId/deploy`,
      { preHandler: change, schema: { tags, params: PlanParams, response: { 202: DeploymentStarted } } },
      async (req, reply) =>
        reply.status(202).send(await deployments.deployPlan(req.params.projectId, req.params.stageId, req.params.planId, currentUser(req).id)),
    );
  };
}

/** getDeploymentTime under /ms-elasticsearch. */
export function deploymentTimeRoutes(deps: { deployments: DeploymentsService; guards: Guards }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:projectId/deployment-time',
      { preHandler: deps.guards.project('view'), schema: { tags: ['deployments'], params: ProjectIdParams, response: { 200: DeploymentTime } } },
      (req) => deps.deployments.deploymentTime(req.params.projectId),
    );
  };
}
