import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { ProjectList } from '@gantry/contracts';
import { compiledSerializer } from './compiled-serializer.js';

describe('compiled serializer', () => {
  const project = {
    id: '0b6f3c1e-2f4a-4c1d-9a53-1d2f0e7c8b90',
    name: 'Shop "Ä" \\ 1',
    description: 'line\nbreak',
    paymentPlanId: 'STARTER',
    permission: 'owner',
    createdAt: '2026-11-23T07:00:00.000Z',
    stagesCount: 2,
    componentsCount: 0,
  } as const;

  it('writes the same JSON as zod', () => {
    const value = { projects: [project, { ...project, id: 'other', permission: 'read' as const }] };
    expect(compiledSerializer({ schema: ProjectList })(value)).toBe(JSON.stringify(z.encode(ProjectList, value)));
  });

  it('writes only the properties of the schema', () => {
    const written = JSON.parse(compiledSerializer({ schema: ProjectList })({ projects: [{ ...project, secret: 's3cr3t' }], ownerPassword: 'x' }));
    expect(written).toEqual({ projects: [project] });
  });

  it('refuses a schema JSON cannot express when the route is made', () => {
    expect(() => compiledSerializer({ schema: z.object({ at: z.date() }) })).toThrow();
  });
});
