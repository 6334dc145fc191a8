// The app's services, given to components through context (tests build their own).
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { TraceStore } from '../engine/traceStore';
import type { AppController } from '../state/controller';
import type { AppStore } from '../state/store';
import type { AppState } from '../state/types';

/** What components may use. */
export interface AppServices {
  store: AppStore;
  controller: AppController;
  traces: TraceStore;
}

export const AppContext = createContext<AppServices | null>(null);

/** The app's services (inside <AppContext.Provider>). */
export function useApp(): AppServices {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside <AppContext.Provider>');
  return app;
}

/**
 * Reads the store. The selector must return a primitive or a reference already in the
 * state: zustand 5 re-renders forever on a fresh object per call.
 */
export function useAppState<T>(selector: (s: AppState) => T): T {
  return useStore(useApp().store, selector);
}
