import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsError, ec2Error, jsonError, queryError, type Answer, type Params } from './protocol.js';
import { emptyWorld, type StandinBucket, type StandinWorld } from './state.js';
import { ec2 } from './ec2.js';
import { autoscaling, AUTOSCALING_NS } from './autoscaling.js';
import { elb, elbv2, ELB_NS, ELBV2_NS } from './elb.js';
import { rds, RDS_NS } from './rds.js';
import { cloudwatchJson, cloudwatchQuery, CLOUDWATCH_NS } from './cloudwatch.js';
import { pricing } from './pricing.js';
import { costExplorer } from './cost-explorer.js';
import { cloudformation, CLOUDFORMATION_NS, type CfnSimulation } from './cloudformation.js';
import { s3, s3Error, S3Error } from './s3.js';

export * from './state.js';
export * from './seed.js';
export { findStack, type CfnStack, type CfnEvent, type CfnResource } from './cloudformation.js';

export interface StandinCall {
  service: string;
  region: string;
  action: string;
}

/**
 * A local stand-in of the AWS services the Cloud Waste Manager calls, speaking each one's real
 * protocol: EC2 (EC2 query), Auto Scaling, ELB, ELBv2, RDS (AWS query), CloudWatch (AWS query for
 * the CLI, AWS JSON 1.0 for SDK v3), Cost Explorer and Pricing (AWS JSON 1.1). The service and
 * region come from the SigV4 credential scope, as AWS's own front ends read them. Point clients at
 * it with `env()` (AWS_ENDPOINT_URL_<SERVICE>). `now` is the clock the recorded series hang from.
 * For Gantry's deployments it also speaks CloudFormation (AWS query; stacks and nested stacks run
 * their operations over time, each resource `cfnStepMs` from in progress to complete) and S3 (REST XML,
 * path style: the nested templates' bucket and the artifact store's, see s3.ts).
 */
export async function startAwsStandin(o: { world?: Partial<StandinWorld>; now?: () => number; cfnStepMs?: number } = {}) {
  const world: StandinWorld = { ...emptyWorld(), ...o.world };
  const now = o.now ?? Date.now;
  const sim: CfnSimulation = { stepMs: o.cfnStepMs ?? 20, closed: false, lastAt: 0 };
  const calls: StandinCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a = handle(world, sim, req, Buffer.concat(chunks), now(), calls);
      res.writeHead(a.status, { 'content-type': a.contentType, 'x-amzn-requestid': crypto.randomUUID(), ...a.headers });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    world,
    calls,
    /** The endpoint variables of the SDK v3 for every service the stand-in speaks. */
    env: (): Record<string, string> =>
      Object.fromEntries(
        [
          'EC2',
          'AUTO_SCALING',
          'ELASTIC_LOAD_BALANCING',
          'ELASTIC_LOAD_BALANCING_V2',
          'RDS',
          'CLOUDWATCH',
          'COST_EXPLORER',
          'PRICING',
          'CLOUDFORMATION',
          'S3',
        ].map((s) => [`AWS_ENDPOINT_URL_${s}`, url]),
      ),
    /** A bucket of the account, made when missing (as an operator makes one before Gantry starts); answers it. */
    bucket: (name: string, region = 'us-east-1'): StandinBucket => {
      const found = world.buckets.find((b) => b.name === name);
      if (found) return found;
      const made: StandinBucket = { name, region, objects: new Map(), lifecycle: null };
      world.buckets.push(made);
      return made;
    },
    /** What an SDK client in this process reads to use the stand-in's S3: its endpoint, the region, test credentials. */
    s3Env: (region: string): Record<string, string> => ({
      AWS_ENDPOINT_URL_S3: url,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    }),
    close: () => {
      sim.closed = true;
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type AwsStandin = Awaited<ReturnType<typeof startAwsStandin>>;

const SCOPE = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

function handle(w: StandinWorld, sim: CfnSimulation, req: http.IncomingMessage, raw: Buffer, now: number, calls: StandinCall[]): Answer {
  const body = raw.toString('utf8');
  const scope = SCOPE.exec(String(req.headers.authorization ?? ''));
  const target = String(req.headers['x-amz-target'] ?? '');
  const json = String(req.headers['content-type'] ?? '').includes('json');
  if (!scope)
    return {
      status: 403,
      contentType: 'text/xml',
      body: '<ErrorResponse><Error><Type>Sender</Type><Code>MissingAuthenticationToken</Code><Message>Request is missing Authentication Token</Message></Error></ErrorResponse>',
    };
  const [, region, service] = scope as unknown as [string, string, string];
  if (service === 's3') {
    const url = new URL(req.url ?? '/', 'http://s3');
    calls.push({ service, region, action: `${req.method} ${url.pathname}${url.search}` });
    try {
      return s3(w, region, { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: raw }, now);
    } catch (err) {
      if (!(err instanceof S3Error)) throw err;
      return s3Error(err, req.method ?? 'GET');
    }
  }
  const params: Params = json ? {} : Object.fromEntries(new URLSearchParams(body));
  const action = json ? target.split('.').pop()! : (params.Action ?? '');
  calls.push({ service, region, action });
  try {
    if (json) {
      const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      if (service === 'monitoring') return cloudwatchJson(w, region, action, input, now);
      if (service === 'pricing') return pricing(w, action, input);
      if (service === 'ce') return costExplorer(w, action, input, now);
      throw new AwsError(400, 'UnknownOperationException', `The stand-in does not speak ${service} in JSON`);
    }
    switch (service) {
      case 'ec2':
        return ec2(w, region, action, params);
      case 'autoscaling':
        return autoscaling(w, region, action, params);
      case 'elasticloadbalancing':
        return params.Version === '2012-06-01' ? elb(w, region, action, params) : elbv2(w, region, action, params);
      case 'rds':
        return rds(w, region, action, params);
      case 'monitoring':
        return cloudwatchQuery(w, region, action, params, now);
      case 'cloudformation':
        return cloudformation(w, sim, region, action, params);
      default:
        throw new AwsError(400, 'InvalidAction', `The stand-in does not speak ${service}`);
    }
  } catch (err) {
    if (!(err instanceof AwsError)) throw err;
    if (json) return jsonError(service === 'monitoring' ? '1.0' : '1.1', err, service === 'ce' ? 'com.amazonaws.awsinsightsindexservice#' : '');
    if (service === 'ec2') return ec2Error(err);
    const ns =
      service === 'autoscaling'
        ? AUTOSCALING_NS
        : service === 'rds'
          ? RDS_NS
          : service === 'monitoring'
            ? CLOUDWATCH_NS
            : service === 'cloudformation'
              ? CLOUDFORMATION_NS
              : params.Version === '2012-06-01'
                ? ELB_NS
                : ELBV2_NS;
    return queryError(ns, err);
  }
}
