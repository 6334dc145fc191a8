// An in-process stand-in for the sheet worker: the real sheet handler and the real wasm
// `exercise_json` in the test process, messages delivered asynchronously as a worker would.
import type { SheetWorkerLike } from '../sheet/sheetClient';
import { createSheetHandler } from '../sheet/sheetHandler';
import type { FromSheetWorker, ToSheetWorker } from '../sheet/protocol';
import { engineWasm } from './wasm';

/** A SheetWorkerLike running in-process; `received` lists what the page asked. */
export class InProcessSheetWorker implements SheetWorkerLike {
  onmessage: ((event: MessageEvent<FromSheetWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly received: ToSheetWorker[] = [];
  private handler: ReturnType<typeof createSheetHandler> | null = null;
  private terminated = false;

  postMessage(msg: ToSheetWorker): void {
    this.received.push(msg);
    setTimeout(() => {
      if (this.terminated) return;
      if (msg.type === 'init') {
        const w = engineWasm();
        this.handler = createSheetHandler(
          {
            exercise: (...a) => w.exercise_json(...a),
            textbookExercise: (...a) => w.textbook_exercise_json(...a),
            beside: (...a) => w.textbook_beside_json(...a),
          },
          (out) => this.deliver(out),
        );
        this.deliver({ type: 'ready' });
        return;
      }
      this.handler?.handle(msg);
    }, 0);
  }

  private deliver(msg: FromSheetWorker) {
    setTimeout(() => {
      if (!this.terminated) this.onmessage?.({ data: msg } as MessageEvent<FromSheetWorker>);
    }, 0);
  }

  terminate(): void {
    this.terminated = true;
  }
}
