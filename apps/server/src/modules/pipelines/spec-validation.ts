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

/** The server's one spec validator: same answers as validatePipelineSpec, without blocking the API. */
export const validateSpecOffThread = createSpecValidator();
