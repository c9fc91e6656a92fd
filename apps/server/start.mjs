#!/usr/bin/env node
// `npm start`'s server: the precompiled build (build.mjs, rebuilt when a source changed), run in this
// very process so the signals a supervisor sends reach the server itself. A fresh data dir starts as a
// copy of the database template, made here when the migrations changed (src/platform/db-template.ts).
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from './build.mjs';

process.setSourceMapsEnabled(true);
const entry = await ensureServerBuild();
const { ensureTemplate } = await import(new URL('platform/db-template.js', pathToFileURL(entry)).href);
// without one (a read-only checkout, a full disk) a new data dir is made from scratch, as before
await ensureTemplate({ log: console.log }).catch((err) => console.warn(`database template: not made (${err.message}); a new data dir starts without it`));
await import(entry);
