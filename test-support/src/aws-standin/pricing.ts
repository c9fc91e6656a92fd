import { AwsError, jsonAnswer, type Answer } from './protocol.js';
import type { StandinWorld } from './state.js';

/** The price list products the stand-in knows, with the attributes the real Price List uses. */
function products(w: StandinWorld, region: string) {
  const out: { serviceCode: string; productFamily: string; attributes: Record<string, string>; unit: string; usd: number }[] = [];
  for (const [instanceType, usd] of Object.entries(w.prices.ec2))
    out.push({
      serviceCode: 'AmazonEC2',
      productFamily: 'Compute Instance',
      attributes: {
        instanceType,
        regionCode: region,
        operatingSystem: 'Linux',
        tenancy: 'Shared',
        preInstalledSw: 'NA',
        capacitystatus: 'Used',
        licenseModel: 'No License required',
      },
      unit: 'Hrs',
      usd,
    });
  for (const [volumeApiName, usd] of Object.entries(w.prices.ebs))
    out.push({ serviceCode: 'AmazonEC2', productFamily: 'Storage', attributes: { volumeApiName, regionCode: region }, unit: 'GB-Mo', usd });
  for (const [instanceType, usd] of Object.entries(w.prices.rds))
    for (const databaseEngine of ['PostgreSQL', 'MySQL', 'MariaDB'])
      out.push({
        serviceCode: 'AmazonRDS',
        productFamily: 'Database Instance',
        attributes: { instanceType, regionCode: region, databaseEngine, deploymentOption: 'Single-AZ' },
        unit: 'Hrs',
        usd,
      });
  for (const [volumeType, usd] of Object.entries(w.prices.rdsStorage))
    out.push({
      serviceCode: 'AmazonRDS',
      productFamily: 'Database Storage',
      attributes: {
        volumeType: volumeType === 'io1' ? 'Provisioned IOPS' : volumeType === 'gp3' ? 'General Purpose-GP3' : 'General Purpose',
        regionCode: region,
        deploymentOption: 'Single-AZ',
        databaseEngine: 'Any',
      },
      unit: 'GB-Mo',
      usd,
    });
  return out;
}

const sku = (s: string) => {
  let h = 0;
  for (const c of s) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return h.toString(36).toUpperCase().padStart(16, 'X').slice(0, 16);
};

/** AWS Price List (AWS JSON 1.1): GetProducts with TERM_MATCH filters, each product a JSON string as AWS sends it. */
export function pricing(w: StandinWorld, action: string, body: Record<string, unknown>): Answer {
  if (action !== 'GetProducts') throw new AwsError(400, 'UnknownOperationException', `Unknown operation ${action}`);
  const filters = (body.Filters as { Type: string; Field: string; Value: string }[] | undefined) ?? [];
  const regionCode = filters.find((f) => f.Field === 'regionCode')?.Value ?? 'us-east-1';
  const matched = products(w, regionCode).filter(
    (p) =>
      p.serviceCode === body.ServiceCode &&
      filters.every((f) => (f.Field === 'productFamily' ? p.productFamily === f.Value : p.attributes[f.Field] === f.Value)),
  );
  const priceList = matched.map((p) => {
    const id = sku(JSON.stringify(p.attributes) + p.serviceCode);
    return JSON.stringify({
      product: { productFamily: p.productFamily, attributes: { servicecode: p.serviceCode, ...p.attributes }, sku: id },
      serviceCode: p.serviceCode,
      terms: {
        OnDemand: {
          [`${id}.JRTCKXETXF`]: {
            priceDimensions: {
              [`${id}.JRTCKXETXF.6YS6EN2CT7`]: {
                unit: p.unit,
                endRange: 'Inf',
                description: `$${p.usd} per ${p.unit}`,
                appliesTo: [],
                rateCode: `${id}.JRTCKXETXF.6YS6EN2CT7`,
                beginRange: '0',
                pricePerUnit: { USD: p.usd.toFixed(10) },
              },
            },
            sku: id,
            effectiveDate: '2026-11-01T00:00:00Z',
            offerTermCode: 'JRTCKXETXF',
            termAttributes: {},
          },
        },
      },
      version: '20261101000000',
      publicationDate: '2026-11-01T00:00:00Z',
    });
  });
  return jsonAnswer('1.1', { FormatVersion: 'aws_v1', PriceList: priceList });
}
