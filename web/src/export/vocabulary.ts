// What the engine says may be exported (`export_tables_json()`): the table names and what
// each holds, the capture points, the snap length's range, the page's size limit and qlog's
// events. Read from the page's own engine instance once; the page never retypes them.
import { export_tables_json } from '../engine/pkg/cwndlab_wasm.js';

/** A name the engine accepts in a request, with its one-line description. */
export interface Named {
  name: string;
  description: string;
}

/** `export_tables_json()`. */
export interface ExportVocabulary {
  tables: Named[];
  capture_points: Named[];
  snaplen: { default: number; min: number; max: number };
  /** The largest export the page builds, bytes (the engine refuses larger ones). */
  page_limit_bytes: number;
  qlog_events: string[];
}

const EMPTY: ExportVocabulary = {
  tables: [],
  capture_points: [],
  snaplen: { default: 96, min: 40, max: 65535 },
  page_limit_bytes: 0,
  qlog_events: [],
};

function named(v: unknown): Named[] {
  return Array.isArray(v)
    ? v.flatMap((x: unknown) => {
        const o = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
        return typeof o.name === 'string' ? [{ name: o.name, description: String(o.description ?? '') }] : [];
      })
    : [];
}

/** Parses the engine's vocabulary (missing parts empty; never throws). */
export function parseVocabulary(json: string): ExportVocabulary {
  try {
    const o = JSON.parse(json) as Record<string, unknown>;
    const snap = (o.snaplen ?? {}) as Record<string, unknown>;
    const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
    return {
      tables: named(o.tables),
      capture_points: named(o.capture_points),
      snaplen: {
        default: num(snap.default, EMPTY.snaplen.default),
        min: num(snap.min, EMPTY.snaplen.min),
        max: num(snap.max, EMPTY.snaplen.max),
      },
      page_limit_bytes: num(o.page_limit_bytes, 0),
      qlog_events: Array.isArray(o.qlog_events) ? o.qlog_events.map(String) : [],
    };
  } catch {
    return EMPTY;
  }
}

let cached: ExportVocabulary | null = null;

/** The engine's export vocabulary (empty when the engine cannot say: exports then offer
 *  nothing that needs it). */
export function exportVocabulary(): ExportVocabulary {
  if (cached) return cached;
  try {
    cached = parseVocabulary(export_tables_json());
  } catch {
    return EMPTY;
  }
  return cached;
}
