#!/usr/bin/env node
// `npm start`'s server: the precompiled build (build.mjs, rebuilt when a source changed), run in this
// very process so the signals a supervisor sends reach the server itself.
import { ensureServerBuild } from './build.mjs';

process.setSourceMapsEnabled(true);
await import(await ensureServerBuild());
