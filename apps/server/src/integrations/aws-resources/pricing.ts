import { PricingClient, GetProductsCommand } from '@aws-sdk/client-pricing';
import type { AwsSession } from './session.js';

type Filters = Record<string, string>;

/** The first on-demand USD price of the Price List products matching every filter, or null. */
function firstUsd(priceList: string[] | undefined): number | null {
  for (const item of priceList ?? []) {
    const product = JSON.parse(item) as { terms?: { OnDemand?: Record<string, { priceDimensions?: Record<string, { pricePerUnit?: { USD?: string } }> }> } };
    for (const term of Object.values(product.terms?.OnDemand ?? {}))
      for (const dim of Object.values(term.priceDimensions ?? {})) {
        const usd = Number(dim.pricePerUnit?.USD);
        if (Number.isFinite(usd) && usd > 0) return usd;
      }
  }
  return null;
}

/**
 * On-demand prices from the AWS Price List API (its endpoint lives in us-east-1), one GetProducts
 * per distinct question within one listing. A failed lookup is no price, not a failed listing.
 */
export function createPriceLookup(s: AwsSession) {
  const client = new PricingClient({ region: 'us-east-1', credentials: s.credentials });
  const asked = new Map<string, Promise<number | null>>();
  const price = (serviceCode: string, filters: Filters) => {
    const all = { regionCode: s.region, ...filters };
    const key = `${serviceCode} ${JSON.stringify(all)}`;
    if (!asked.has(key))
      asked.set(
        key,
        client
          .send(
            new GetProductsCommand({
              ServiceCode: serviceCode,
              Filters: Object.entries(all).map(([Field, Value]) => ({ Type: 'TERM_MATCH', Field, Value })),
              MaxResults: 10,
            }),
          )
          .then((r) => firstUsd(r.PriceList as string[] | undefined))
          .catch(() => null),
      );
    return asked.get(key)!;
  };
  return {
    /** USD per hour of a Linux, shared-tenancy instance. */
    ec2: (instanceType: string) =>
      price('AmazonEC2', { instanceType, operatingSystem: 'Linux', tenancy: 'Shared', preInstalledSw: 'NA', capacitystatus: 'Used' }),
    /** USD per GB-month of an EBS volume type (gp3, gp2, io1…). */
    ebs: (volumeType: string) => price('AmazonEC2', { productFamily: 'Storage', volumeApiName: volumeType }),
    /** USD per hour of a DB instance class for an engine. */
    rds: (instanceClass: string, engine: string, multiAz: boolean) =>
      price('AmazonRDS', { instanceType: instanceClass, databaseEngine: RDS_ENGINES[engine] ?? engine, deploymentOption: multiAz ? 'Multi-AZ' : 'Single-AZ' }),
    /** USD per GB-month of RDS storage. */
    rdsStorage: (storageType: string, multiAz: boolean) =>
      price('AmazonRDS', {
        productFamily: 'Database Storage',
        volumeType: RDS_STORAGE[storageType] ?? storageType,
        deploymentOption: multiAz ? 'Multi-AZ' : 'Single-AZ',
      }),
    close: () => client.destroy(),
  };
}

const RDS_ENGINES: Record<string, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  'aurora-postgresql': 'Aurora PostgreSQL',
  'aurora-mysql': 'Aurora MySQL',
};
const RDS_STORAGE: Record<string, string> = {
  gp2: 'General Purpose',
  gp3: 'General Purpose-GP3',
  io1: 'Provisioned IOPS',
  io2: 'Provisioned IOPS-IO2',
  standard: 'Magnetic',
};
