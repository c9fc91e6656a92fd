#!/usr/bin/env node
// `npx gantry …` from a checkout without a build step: tsx is registered as a loader in this very
// process (no wrapper process between the server and the signals a supervisor sends it).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
