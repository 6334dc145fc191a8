// The real engine in Node, for tests: the same wasm the browser runs, instantiated with
// initSync (no fetch). Never a stub: results in tests are the engine's own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from '../engine/pkg/cwndlab_wasm.js';
import type { Codes } from '../engine/tables';
import { provideFullEngine } from '../engine/wasmMain';
import { parseValidation } from '../engine/validation';
import { simFactory } from '../engine/runs';
import type { EngineApi } from '../engine/workerHandler';
import type { Validator } from '../scenario/url';

let ready = false;

/** The wasm module's exports, initialised once per test file. */
export function engineWasm(): typeof wasm {
  if (!ready) {
    wasm.initSync({ module: readFileSync(join(import.meta.dirname, '..', 'engine', 'pkg', 'cwndlab_wasm_bg.wasm')) });
    // The page's theory note reads the full engine from wasmMain, which loads it by fetch.
    provideFullEngine(wasm);
    ready = true;
  }
  return wasm;
}

/** The engine's validator. */
export function realValidator(): Validator {
  const w = engineWasm();
  return (json) => parseValidation(w.validate_json(json));
}

/** What the worker handler needs, backed by the real engine. */
export function realEngineApi(): EngineApi {
  const w = engineWasm();
  return {
    createSim: simFactory(w),
    firstDivergence: (a, b) => w.first_divergence_json(a, b),
    codes: JSON.parse(w.codes_json()) as Codes,
  };
}
