// The page's own copy of the engine: compiled once, used here for validation (synchronous,
// so a link or a control is checked before anything runs) and handed to the workers as a
// compiled module so they only instantiate it.
import init, { validate_json } from './pkg/cwndlab_wasm.js';
import wasmUrl from './pkg/cwndlab_wasm_bg.wasm?url';
import type { Validator } from '../scenario/url';
import { parseValidation } from './validation';

/** The compiled engine and its validator. */
export interface LoadedEngine {
  module: WebAssembly.Module;
  validate: Validator;
}

/** The engine compiled by loadEngine (null before): other workers (exports) start from it. */
let compiled: WebAssembly.Module | null = null;

/** The page's compiled engine, once loaded. */
export function compiledEngine(): WebAssembly.Module | null {
  return compiled;
}

/** Fetches and compiles the engine, then instantiates it on the page. */
export async function loadEngine(): Promise<LoadedEngine> {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`could not load the engine (${response.status} ${response.statusText})`);
  const module = await WebAssembly.compile(await response.arrayBuffer());
  await init({ module_or_path: module });
  compiled = module;
  return { module, validate: (json) => parseValidation(validate_json(json)) };
}
