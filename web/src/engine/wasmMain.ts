// The page's own copy of the engine: compiled once, used here for validation (synchronous,
// so a link or a control is checked before anything runs) and handed to the engine workers
// as a compiled module so they only instantiate it. That first engine is the lite build
// (pkg/lite: no exporters, sheets or theory; scripts/setup.mjs); the full one is fetched
// only when an export, a sheet or the theory note first needs it (loadFullEngine).
import init, { validate_json } from './pkg/lite/cwndlab_wasm.js';
import wasmUrl from './pkg/lite/cwndlab_wasm_bg.wasm?url';
import fullWasmUrl from './pkg/cwndlab_wasm_bg.wasm?url';
import type { Validator } from '../scenario/url';
import { parseValidation } from './validation';

/** The compiled engine and its validator. */
export interface LoadedEngine {
  module: WebAssembly.Module;
  validate: Validator;
}

/** The full engine, compiled and instantiated on the page (null before loadFullEngine):
 *  the export and sheet workers start from it. */
let compiled: WebAssembly.Module | null = null;
let fullLoad: Promise<WebAssembly.Module> | null = null;

/** The full engine's functions the page calls itself (the theory note's `theory_json`). */
export type FullEngine = Pick<typeof import('./pkg/cwndlab_wasm.js'), 'theory_json'>;

/** The full engine's bindings, once instantiated (loadFullEngine); imported with it, so that
 *  they are not part of the first view's script. */
let full: FullEngine | null = null;

/** The full engine's functions, or null before loadFullEngine has instantiated it. */
export function fullEngine(): FullEngine | null {
  return full;
}

/** The full engine instantiated another way (the tests' initSync in Node, test/wasm.ts). */
export function provideFullEngine(engine: FullEngine): void {
  full = engine;
}

/** The page's compiled full engine, once loaded (loadFullEngine). */
export function compiledEngine(): WebAssembly.Module | null {
  return compiled;
}

async function compile(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the engine (${response.status} ${response.statusText})`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** Fetches and compiles the full engine (once) and instantiates it on the page, for the
 *  functions the page calls directly (theory_json, export_tables_json). */
export function loadFullEngine(): Promise<WebAssembly.Module> {
  fullLoad ??= (async () => {
    const [module, glue] = await Promise.all([compile(fullWasmUrl), import('./pkg/cwndlab_wasm.js')]);
    await glue.default({ module_or_path: module });
    compiled = module;
    full = glue;
    return module;
  })();
  // A failed load (offline before the service worker has the file) may be tried again.
  fullLoad.catch(() => (fullLoad = null));
  return fullLoad;
}

/** Fetches and compiles the first-view engine, then instantiates it on the page. */
export async function loadEngine(): Promise<LoadedEngine> {
  const module = await compile(wasmUrl);
  await init({ module_or_path: module });
  return { module, validate: (json) => parseValidation(validate_json(json)) };
}
