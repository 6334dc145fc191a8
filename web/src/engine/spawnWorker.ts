import type { WorkerLike } from './client';
import { takeFault } from './fault';

/** Starts one engine worker (Vite bundles the worker from this exact expression). In a
 *  fault test only (fault.ts), the first worker started is told to fail. */
export function spawnEngineWorker(): WorkerLike {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cwndlab-engine',
  });
  const fault = takeFault('engine');
  if (fault) worker.postMessage(fault);
  return worker as unknown as WorkerLike;
}

/** Workers to start: one per core, at most one per algorithm, at least one. */
export function poolSize(algorithms: number): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(cores, algorithms));
}
