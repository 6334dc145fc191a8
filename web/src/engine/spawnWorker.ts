import { spawnWorker } from '../lib/workerRpc';
import type { WorkerLike } from './client';

/** Starts one engine worker (Vite bundles the worker from this exact expression;
 *  lib/workerRpc.ts arms a test's fault). */
export function spawnEngineWorker(): WorkerLike {
  return spawnWorker(
    'engine',
    () =>
      new Worker(new URL('./engine.worker.ts', import.meta.url), {
        type: 'module',
        name: 'cwndlab-engine',
      }),
  );
}

/** Workers to start: one per core, at most one per algorithm, at least one. */
export function poolSize(algorithms: number): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores, algorithms));
}
