import { ProjectList, type Project } from '@gantry/contracts';
import type { ReadCache } from '../../platform/read-cache.js';
import { compiledSerializer } from '../../platform/compiled-serializer.js';

/** How many users' lists are kept (the oldest kept goes first). */
const KEPT_LISTS = 2_000;

/**
 * The project list as GET /projects sends it, its JSON bytes kept per user (every signed-in page asks for
 * it): until a table it is read from is written, in this process or another, or until a plan in it may
 * change with time (a subscription starts or runs out). A hit costs a lookup, not the list's assembly
 * and serialisation. The key is the user id from the verified token: no user is answered another's list.
 */
export function projectListAnswer(deps: {
  cache: ReadCache;
  list: (userId: string) => Promise<{ projects: Project[]; changesAt: number }>;
  /** Every table the list is read from (asked once, at first use, when every module has said what it counts). */
  reads: () => string[];
}): (userId: string) => Promise<Buffer> {
  const serialize = compiledSerializer({ schema: ProjectList });
  let kept: ((userId: string) => Promise<{ body: Buffer; until: number }>) | undefined;
  return async (userId) => {
    kept ??= deps.cache.memo(
      deps.reads(),
      async (id: string) => {
        const { projects, changesAt } = await deps.list(id);
        return { body: Buffer.from(serialize({ projects })), until: changesAt };
      },
      { max: KEPT_LISTS, until: (answer) => answer.until },
    );
    return (await kept(userId)).body;
  };
}
