import { AwsError, list, named, queryAnswer, structs, type Answer, type Params } from './protocol.js';
import { dbArn, type StandinDb, type StandinWorld } from './state.js';

export const RDS_NS = 'http://rds.amazonaws.com/doc/2014-10-31/';

function dbXml(w: StandinWorld, db: StandinDb) {
  return {
    DBInstanceIdentifier: db.id,
    DBInstanceClass: db.instanceClass,
    Engine: db.engine,
    DBInstanceStatus: db.status,
    MasterUsername: 'postgres',
    Endpoint: { Address: `${db.id}.cabc123xyz.${db.region}.rds.amazonaws.com`, Port: 5432, HostedZoneId: 'Z29XKXDKYMONMX' },
    AllocatedStorage: db.storageGb,
    InstanceCreateTime: '2026-01-05T09:00:00.000Z',
    PreferredBackupWindow: '03:00-03:30',
    BackupRetentionPeriod: 7,
    AvailabilityZone: `${db.region}a`,
    MultiAZ: false,
    EngineVersion: '16.3',
    AutoMinorVersionUpgrade: true,
    PubliclyAccessible: false,
    StorageType: db.storageType,
    DbInstancePort: 0,
    StorageEncrypted: true,
    DbiResourceId: `db-${db.id.toUpperCase().replace(/[^A-Z0-9]/g, '')}ABCDEFGHIJ`.slice(0, 29),
    DBInstanceArn: dbArn(w, db),
    TagList: named(
      'Tag',
      Object.entries(db.tags).map(([Key, Value]) => ({ Key, Value })),
    ),
  };
}

const byId = (w: StandinWorld, region: string, id: string | undefined) => {
  const db = w.dbs.find((d) => d.region === region && (d.id === id || dbArn(w, d) === id));
  if (!db) throw new AwsError(404, 'DBInstanceNotFound', `DBInstance ${id} not found.`);
  return db;
};

/** RDS (AWS query): DB instances, start/stop with the real state rules, tags by ARN. */
export function rds(w: StandinWorld, region: string, action: string, p: Params): Answer {
  switch (action) {
    case 'DescribeDBInstances': {
      const found = p.DBInstanceIdentifier ? [byId(w, region, p.DBInstanceIdentifier)] : w.dbs.filter((d) => d.region === region);
      const max = p.MaxRecords ? Number(p.MaxRecords) : 100;
      const start = p.Marker ? Number(p.Marker) : 0;
      return queryAnswer(RDS_NS, action, {
        DBInstances: named(
          'DBInstance',
          found.slice(start, start + max).map((d) => dbXml(w, d)),
        ),
        Marker: start + max < found.length ? String(start + max) : undefined,
      });
    }
    case 'StopDBInstance':
    case 'StartDBInstance': {
      const db = byId(w, region, p.DBInstanceIdentifier);
      const stop = action === 'StopDBInstance';
      if (db.status !== (stop ? 'available' : 'stopped'))
        throw new AwsError(
          400,
          'InvalidDBInstanceState',
          stop ? `Instance ${db.id} is not in available state.` : `Instance ${db.id} is not stopped, cannot be started.`,
        );
      db.status = stop ? 'stopped' : 'available';
      return queryAnswer(RDS_NS, action, { DBInstance: { ...dbXml(w, db), DBInstanceStatus: stop ? 'stopping' : 'starting' } });
    }
    case 'AddTagsToResource':
    case 'RemoveTagsFromResource': {
      const db = byId(w, region, p.ResourceName);
      if (action === 'AddTagsToResource') for (const t of structs(p, 'Tags')) db.tags[t.Key!] = t.Value ?? '';
      else for (const k of list(p, 'TagKeys')) delete db.tags[k];
      return queryAnswer(RDS_NS, action, null);
    }
    case 'ListTagsForResource': {
      const db = byId(w, region, p.ResourceName);
      return queryAnswer(RDS_NS, action, {
        TagList: named(
          'Tag',
          Object.entries(db.tags).map(([Key, Value]) => ({ Key, Value })),
        ),
      });
    }
    default:
      throw new AwsError(400, 'InvalidAction', `Could not find operation ${action} for version 2014-10-31`);
  }
}
