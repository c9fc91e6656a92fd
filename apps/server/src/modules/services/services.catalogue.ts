import type { Microservice } from '@gantry/contracts';

/**
 * The public services every project sees (kind PUBLIC, read-only): official Docker Hub images people expect to run
 * next to their own, with the inputs their images read and a few of their tags (any tag may be deployed).
 */
interface CatalogueEntry extends Omit<Microservice, 'id' | 'kind' | 'isPublic' | 'registry' | 'createdAt'> {
  tags: string[];
}

const input = (name: string, description: string, o: { required?: boolean; sensitive?: boolean; default?: string; type?: 'string' | 'number' } = {}) => ({
  name,
  description,
  type: o.type ?? ('string' as const),
  required: o.required ?? false,
  default: o.default ?? null,
  sensitive: o.sensitive ?? false,
  pattern: null,
});

const CATALOGUE: CatalogueEntry[] = [
  {
    name: 'nginx',
    description: 'NGINX web server and reverse proxy',
    imageRepository: 'docker.io/library/nginx',
    readme:
      '# nginx\n\nThe official NGINX image. Serves HTTP on port 80; mount or bake your configuration into an image of your own for anything beyond the welcome page.',
    schema: { inputs: [], outputs: [{ name: 'http', description: 'HTTP on port 80 of the service' }], port: 80 },
    tags: ['latest', '1.27', '1.27-alpine', '1.26', 'stable-alpine'],
  },
  {
    name: 'httpd',
    description: 'Apache HTTP Server',
    imageRepository: 'docker.io/library/httpd',
    readme: '# httpd\n\nThe official Apache HTTP Server image, serving on port 80.',
    schema: { inputs: [], outputs: [{ name: 'http', description: 'HTTP on port 80 of the service' }], port: 80 },
    tags: ['latest', '2.4', '2.4-alpine'],
  },
  {
    name: 'redis',
    description: 'Redis in-memory data store',
    imageRepository: 'docker.io/library/redis',
    readme: '# redis\n\nThe official Redis image on port 6379. Data lives in the pod: use it as a cache, not as a system of record.',
    schema: { inputs: [], outputs: [{ name: 'redis', description: 'Redis protocol on port 6379' }], port: 6379 },
    tags: ['latest', '7.4', '7.4-alpine', '7.2'],
  },
  {
    name: 'postgres',
    description: 'PostgreSQL relational database',
    imageRepository: 'docker.io/library/postgres',
    readme: "# postgres\n\nThe official PostgreSQL image on port 5432. `POSTGRES_PASSWORD` is required; storage is the pod's own (no volume).",
    schema: {
      inputs: [
        input('POSTGRES_PASSWORD', 'Password of the superuser', { required: true, sensitive: true }),
        input('POSTGRES_USER', 'Name of the superuser', { default: 'postgres' }),
        input('POSTGRES_DB', 'Database created at first start', { default: 'postgres' }),
      ],
      outputs: [{ name: 'postgres', description: 'PostgreSQL protocol on port 5432' }],
      port: 5432,
    },
    tags: ['latest', '17', '17-alpine', '16', '15'],
  },
  {
    name: 'mongo',
    description: 'MongoDB document database',
    imageRepository: 'docker.io/library/mongo',
    readme: '# mongo\n\nThe official MongoDB image on port 27017.',
    schema: {
      inputs: [
        input('MONGO_INITDB_ROOT_USERNAME', 'Root user created at first start'),
        input('MONGO_INITDB_ROOT_PASSWORD', 'Password of the root user', { sensitive: true }),
      ],
      outputs: [{ name: 'mongodb', description: 'MongoDB protocol on port 27017' }],
      port: 27017,
    },
    tags: ['latest', '8.0', '7.0'],
  },
  {
    name: 'rabbitmq',
    description: 'RabbitMQ message broker',
    imageRepository: 'docker.io/library/rabbitmq',
    readme: '# rabbitmq\n\nThe official RabbitMQ image, AMQP on port 5672.',
    schema: {
      inputs: [
        input('RABBITMQ_DEFAULT_USER', 'Default user', { default: 'guest' }),
        input('RABBITMQ_DEFAULT_PASS', 'Password of the default user', { sensitive: true }),
      ],
      outputs: [{ name: 'amqp', description: 'AMQP on port 5672' }],
      port: 5672,
    },
    tags: ['latest', '4.0', '4.0-management', '3.13'],
  },
];

export const publicServices: Microservice[] = CATALOGUE.map(({ tags: _tags, ...e }) => ({
  ...e,
  id: `public-${e.name}`,
  registry: null,
  isPublic: true,
  kind: 'PUBLIC',
  createdAt: null,
}));
export const publicService = (name: string) => publicServices.find((s) => s.name === name);
export const publicTags = (name: string) => CATALOGUE.find((s) => s.name === name)?.tags ?? ['latest'];
