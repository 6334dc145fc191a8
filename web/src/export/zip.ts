// A STORE-only (uncompressed) zip writer for the page's exports: files arrive as chunks,
// possibly interleaved (an export streams every file of a run at once), each file's CRC-32
// is computed incrementally over its chunks, and the archive is a list of Blob parts (never
// one big string or buffer). Each local header is written once its file is complete, so no
// data descriptors are needed. No zip64: an archive of more than 65 535 files or 4 GiB is
// refused with a message (the engine's export limit is far below that).

/** CRC-32 (IEEE 802.3, the one zip uses), table-driven. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `bytes` continued from `crc` (0 for a fresh one). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i += 1) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Largest size or offset a zip without zip64 records. */
const MAX_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;
/** Chunks held as arrays are folded into one Blob past this many bytes (the browser may
 *  keep large Blobs out of the JS heap). */
const FOLD_BYTES = 8 << 20;

/** MS-DOS time and date of `d` (local time; 2-second resolution; 1980 at the earliest). */
export function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** One file being written. */
class Entry {
  crc = 0;
  size = 0;
  closed = false;
  /** Chunks not yet folded, and the folded Blobs (in order). */
  private pending: Uint8Array<ArrayBuffer>[] = [];
  private pendingBytes = 0;
  private folded: Blob[] = [];

  constructor(
    readonly name: Uint8Array<ArrayBuffer>,
    readonly path: string,
  ) {}

  write(chunk: Uint8Array, crcSoFar?: number): void {
    if (this.closed) throw new Error(`zip: ${this.path} is already closed`);
    if (chunk.length === 0) return;
    if (this.size + chunk.length > MAX_32) {
      throw new Error(`zip: ${this.path} is larger than 4 GiB, which this page's zip writer does not do`);
    }
    this.crc = crcSoFar ?? crc32(chunk, this.crc);
    this.size += chunk.length;
    // A copy only when the chunk is a view of a larger buffer (a Blob part keeps its buffer).
    const own =
      chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer
        ? (chunk as Uint8Array<ArrayBuffer>)
        : new Uint8Array(chunk);
    this.pending.push(own);
    this.pendingBytes += own.length;
    if (this.pendingBytes >= FOLD_BYTES) this.fold();
  }

  private fold(): void {
    if (this.pending.length === 0) return;
    this.folded.push(new Blob(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The file's data as Blob parts. */
  parts(): BlobPart[] {
    this.fold();
    return this.folded;
  }
}

/** A file of the archive that is written to while other files are (see `ZipWriter.file`). */
export interface ZipFile {
  /** Appends a chunk. `crcSoFar`, when the producer computed it (the export worker does, so
   *  the page does no per-byte work): the CRC-32 of the file's bytes up to the end of this
   *  chunk; otherwise it is computed here. */
  write(chunk: Uint8Array, crcSoFar?: number): void;
  /** No more chunks. */
  close(): void;
}

/** Writes a zip archive of stored (uncompressed) files. */
export class ZipWriter {
  private entries: Entry[] = [];
  private names = new Set<string>();
  private readonly stamp: { time: number; date: number };

  /** `date`: the files' modification time (default: now). */
  constructor(date: Date = new Date()) {
    this.stamp = dosDateTime(date);
  }

  /** Starts a file at `path` ('/'-separated, relative; a folder is made by its files). */
  file(path: string): ZipFile {
    const clean = path.replace(/\\/g, '/').replace(/^\/+/, '');
    if (clean === '' || clean.split('/').some((p) => p === '..' || p === '.' || p === '')) {
      throw new Error(`zip: bad file name ${JSON.stringify(path)}`);
    }
    if (this.names.has(clean)) throw new Error(`zip: ${clean} twice`);
    if (this.entries.length >= MAX_ENTRIES) throw new Error(`zip: more than ${MAX_ENTRIES} files`);
    this.names.add(clean);
    const entry = new Entry(new TextEncoder().encode(clean), clean);
    this.entries.push(entry);
    return {
      write: (chunk, crc) => entry.write(chunk, crc),
      close: () => {
        entry.closed = true;
      },
    };
  }

  /** A whole file at once. */
  add(path: string, data: Uint8Array | string): void {
    const f = this.file(path);
    f.write(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    f.close();
  }

  /** The files so far: path, size and data (Blob parts). */
  files(): { path: string; size: number; parts: BlobPart[] }[] {
    return this.entries.map((e) => ({ path: e.path, size: e.size, parts: e.parts() }));
  }

  /** The archive as Blob parts (every file is closed first). */
  finish(): BlobPart[] {
    const out: BlobPart[] = [];
    const central: Uint8Array<ArrayBuffer>[] = [];
    let offset = 0;
    for (const e of this.entries) {
      e.closed = true;
      if (offset > MAX_32) throw new Error('zip: the archive is larger than 4 GiB');
      const local = this.header(e, false, 0);
      out.push(local, ...e.parts());
      central.push(this.header(e, true, offset));
      offset += local.length + e.size;
    }
    const cdSize = central.reduce((a, c) => a + c.length, 0);
    if (offset > MAX_32 || offset + cdSize > MAX_32) throw new Error('zip: the archive is larger than 4 GiB');
    out.push(...central);
    const end = new Uint8Array(22);
    const v = new DataView(end.buffer);
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, this.entries.length, true);
    v.setUint16(10, this.entries.length, true);
    v.setUint32(12, cdSize, true);
    v.setUint32(16, offset, true);
    out.push(end);
    return out;
  }

  /** The archive as a Blob. */
  blob(): Blob {
    return new Blob(this.finish(), { type: 'application/zip' });
  }

  /** A local file header, or (central) a central directory header at `offset`. */
  private header(e: Entry, central: boolean, offset: number): Uint8Array<ArrayBuffer> {
    const fixed = central ? 46 : 30;
    const h = new Uint8Array(fixed + e.name.length);
    const v = new DataView(h.buffer);
    let p = 0;
    const u16 = (x: number) => {
      v.setUint16(p, x, true);
      p += 2;
    };
    const u32 = (x: number) => {
      v.setUint32(p, x >>> 0, true);
      p += 4;
    };
    u32(central ? 0x02014b50 : 0x04034b50);
    if (central) u16(20); // made by: MS-DOS attributes, spec 2.0
    u16(20); // needed to extract: 2.0
    u16(0x0800); // bit 11: the name is UTF-8
    u16(0); // stored
    u16(this.stamp.time);
    u16(this.stamp.date);
    u32(e.crc);
    u32(e.size); // compressed = uncompressed
    u32(e.size);
    u16(e.name.length);
    u16(0); // extra field
    if (central) {
      u16(0); // comment
      u16(0); // disk
      u16(0); // internal attributes
      u32(0); // external attributes
      u32(offset);
    }
    h.set(e.name, p);
    return h;
  }
}
