import { Worker } from 'node:worker_threads';
import { validatePipelineSpec, type PipelineSpecValidation } from '@gantry/contracts';

/**
 * Pipeline spec validation off the request thread. YAML parsing of a spec near the 256 KB cap
 * takes up to about a second of CPU for the worst shapes (thousands of tiny steps or flow items),
 * which would stall every other request; small specs (a few ms) are validated in place.
 */
const INLINE_BELOW_CHARS = 16 * 1024;

// The contracts are TypeScript sources in every mode (tsx in development and tests, the precompiled server too):
// the worker imports them through tsx's API. A worker given `--import tsx` in its execArgv could not load them
// (ERR_UNKNOWN_FILE_EXTENSION), so every large spec was validated in place, on the API's thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.tsxApi)
  .then(({ tsImport }) => tsImport(workerData.contracts, workerData.contracts))
  .then(({ validatePipelineSpec }) => {
    parentPort.on('message', ({ id, yaml }) => parentPort.postMessage({ id, result: validatePipelineSpec(yaml) }));
  });`;

type Pending = { yaml: string; resolve: (r: PipelineSpecValidation) => void };

function createSpecValidator() {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  function giveUp() {
    broken = true; // validate in place from now on rather than fail a request
    worker = null;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve(validatePipelineSpec(p.yaml));
    }
  }

  function start() {
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { tsxApi: import.meta.resolve('tsx/esm/api'), contracts: import.meta.resolve('@gantry/contracts') },
    });
    w.unref(); // an idle validator never keeps the process alive
    w.on('message', (m: { id?: number; result?: PipelineSpecValidation }) => {
      if (m.id === undefined) return;
      const p = pending.get(m.id);
      pending.delete(m.id);
      p?.resolve(m.result!);
    });
    w.on('error', giveUp);
    w.on('exit', () => {
      if (worker === w) giveUp();
    });
    return w;
  }

  return async function validate(yaml: string): Promise<PipelineSpecValidation> {
    if (typeof yaml !== 'string' || yaml.length < INLINE_BELOW_CHARS || broken) return validatePipelineSpec(yaml);
    try {
      worker ??= start();
    } catch {
      broken = true;
      return validatePipelineSpec(yaml);
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, { yaml, resolve });
      worker!.postMessage({ id, yaml });
    });
  };
}

/**
 * The answers for the specs validated last, by their text: a pipeline's builds read the same spec build after
 * build, and its parse is on the way to the first step (0.5–1.4 ms for a small spec). Frozen: shared by callers.
 * At most `max` small specs (16 KB each) are kept.
 */
export function rememberValidations(validate: (yaml: string) => Promise<PipelineSpecValidation>, max = 100) {
  const known = new Map<string, Promise<PipelineSpecValidation>>();
  return (yaml: string): Promise<PipelineSpecValidation> => {
    // a large spec is parsed off the thread anyway, and kept would hold its text
    if (typeof yaml !== 'string' || yaml.length >= INLINE_BELOW_CHARS) return validate(yaml);
    let answer = known.get(yaml);
    if (answer) {
      known.delete(yaml); // the newest at the end: the oldest goes first
    } else {
      answer = validate(yaml).then(deepFreeze);
      if (known.size >= max) known.delete(known.keys().next().value!);
    }
    known.set(yaml, answer);
    return answer;
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The server's one spec validator: same answers as validatePipelineSpec, without blocking the API. */
export const validateSpecOffThread = rememberValidations(createSpecValidator());
