// Runs the bash side of a bench comparison from a small process and times it there: a fork of the bench
// process (Gantry and its PGlite in it, ~700 MB) costs in proportion to its memory, which a user's shell never pays.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

process.on('message', (scripts) => {
  const t0 = performance.now();
  for (const script of scripts) spawnSync('bash', ['-c', script], { stdio: 'ignore' });
  process.send(performance.now() - t0);
});
