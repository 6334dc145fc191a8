// A comparison's runs made from its scenario read once. The page sends a comparison's
// scenario (the one it validated) with each run's algorithm; the worker gives the engine that
// text once (`Runs`), and the engine makes each run from the scenario it read, the
// algorithm's settings applied in Rust (engine/core/src/scenario/runs.rs): no JSON text per
// algorithm. A run without an algorithm (a competition, a replay after a live change) is
// read from its own text (`Sim`).

/** What a factory needs of the wasm bindings (`Sim`, `Runs`). */
export interface RunsBindings<S> {
  Sim: new (json: string) => S;
  Runs: new (json: string) => { sim(algorithm?: string | null): S; free(): void };
}

/** Comparison scenarios kept read (the values a focused slider computes ahead, then the one
 *  it steps to): a few, freed oldest first. */
export const RUNS_KEPT = 8;

/** `createSim(scenarioJson, algorithm?)`: a run of `algorithm` on the comparison scenario
 *  `scenarioJson` (read once for every algorithm), or of `scenarioJson` as it is. Throws
 *  with the engine's problems (a JSON list) when it refuses the run's scenario. */
export function simFactory<S>(w: RunsBindings<S>, kept = RUNS_KEPT): (json: string, algorithm?: string) => S {
  const read = new Map<string, InstanceType<RunsBindings<S>['Runs']>>();
  return (json, algorithm) => {
    if (algorithm === undefined) return new w.Sim(json);
    let runs = read.get(json);
    if (runs) {
      read.delete(json);
    } else {
      runs = new w.Runs(json);
      for (const [old, r] of read) {
        if (read.size < kept) break;
        r.free();
        read.delete(old);
      }
    }
    read.set(json, runs);
    return runs.sim(algorithm);
  };
}
