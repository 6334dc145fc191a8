// The sheet the page shows: made in the sheet worker from the view and the link's `sheet`
// (SheetPanel asks; the screen view and the print sections read it).
import { createStore } from 'zustand/vanilla';
import type { Sheet } from './sheet';

/** The sheet's state: nothing asked, being made, made, or refused. */
export interface SheetResult {
  status: 'idle' | 'making' | 'ready' | 'failed';
  sheet: Sheet | null;
  /** What the page says about it (the engine's reason when refused). */
  message: string;
}

/** One per page. */
export const sheetResult = createStore<SheetResult>()(() => ({ status: 'idle', sheet: null, message: '' }));
