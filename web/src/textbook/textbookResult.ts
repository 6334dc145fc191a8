// The textbook model the rounds view draws: made in the sheet worker from the focused run
// and the link's `tb` (RoundsPlots asks; the rounds panel draws it).
import { createStore } from 'zustand/vanilla';
import type { TextbookBeside } from './textbook';

/** The model's state: nothing asked, being made, made, or refused. */
export interface TextbookResult {
  status: 'idle' | 'making' | 'ready' | 'failed';
  /** The run it is the model of (its key in the view). */
  runKey: string | null;
  model: TextbookBeside | null;
  /** What the page says about it (the engine's reason when refused). */
  message: string;
}

/** One per page. */
export const textbookResult = createStore<TextbookResult>()(() => ({
  status: 'idle',
  runKey: null,
  model: null,
  message: '',
}));
