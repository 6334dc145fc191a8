// Loads a wasm-bindgen (--target web) build of the engine under Node: the module's exports
// after `initSync`. Shared by determinism.mjs and fuzz-determinism.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The engine package in `pkg` (web/src/engine/pkg, or pkg/lite), initialised. */
export async function loadWasm(pkg) {
  const wasm = await import(join(pkg, 'cwndlab_wasm.js'));
  wasm.initSync({ module: readFileSync(join(pkg, 'cwndlab_wasm_bg.wasm')) });
  return wasm;
}
