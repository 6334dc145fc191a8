// The zip writer against the standard's check value, its own header parse, and two
// independent readers: Python's zipfile and Info-ZIP's unzip (whichever is installed).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32, dosDateTime, ZipWriter } from './zip';

const enc = new TextEncoder();
const dir = mkdtempSync(join(tmpdir(), 'cwndlab-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Which of the two readers exist here. */
function has(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const PYTHON = has('python3', ['-c', 'import zipfile']);
const UNZIP = has('unzip', ['-v']);

/** Every entry of a zip, read from its central directory and local headers. */
function parse(bytes: Uint8Array): { name: string; data: Uint8Array; crc: number; method: number; flags: number }[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  expect(v.getUint32(end, true)).toBe(0x06054b50);
  const count = v.getUint16(end + 10, true);
  let p = v.getUint32(end + 16, true);
  const out = [];
  for (let i = 0; i < count; i += 1) {
    expect(v.getUint32(p, true)).toBe(0x02014b50);
    const flags = v.getUint16(p + 8, true);
    const method = v.getUint16(p + 10, true);
    const crc = v.getUint32(p + 16, true);
    const size = v.getUint32(p + 24, true);
    const nameLen = v.getUint16(p + 28, true);
    const offset = v.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLen));
    // The local header agrees with the central one.
    expect(v.getUint32(offset, true)).toBe(0x04034b50);
    expect(v.getUint32(offset + 14, true)).toBe(crc);
    expect(v.getUint32(offset + 22, true)).toBe(size);
    const localName = v.getUint16(offset + 26, true);
    const extra = v.getUint16(offset + 28, true);
    const start = offset + 30 + localName + extra;
    out.push({ name, data: bytes.slice(start, start + size), crc, method, flags });
    p += 46 + nameLen;
  }
  return out;
}

describe('crc32', () => {
  it('gives the standard check value, whole or in pieces', () => {
    const data = enc.encode('123456789');
    expect(crc32(data)).toBe(0xcbf43926);
    expect(crc32(data.subarray(4), crc32(data.subarray(0, 4)))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

describe('ZipWriter', () => {
  it('writes interleaved chunks, folders, an empty file and a UTF-8 name that readers accept', async () => {
    const zip = new ZipWriter(new Date(2024, 4, 17, 13, 45, 30));
    const a = zip.file('reno/series_flow0.csv');
    const b = zip.file('reno/events.csv');
    const big = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    a.write(enc.encode('time_s,cwnd_bytes\n'));
    b.write(enc.encode('time_s,flow,kind\n'));
    a.write(enc.encode('0,1000\n'));
    b.write(big.subarray(1000, 2000)); // a view of a larger buffer
    a.write(enc.encode('0.1,2000\n'));
    a.close();
    b.close();
    zip.add('newreno/series_flow0.csv', 'time_s,cwnd_bytes\n');
    zip.add('empty.csv', '');
    zip.add('größe ✓.json', '{"ok":true}');
    zip.add('big.bin', big);
    const bytes = new Uint8Array(await zip.blob().arrayBuffer());
    const entries = parse(bytes);
    expect(entries.map((e) => e.name)).toEqual([
      'reno/series_flow0.csv',
      'reno/events.csv',
      'newreno/series_flow0.csv',
      'empty.csv',
      'größe ✓.json',
      'big.bin',
    ]);
    const text = (i: number) => new TextDecoder().decode(entries[i]?.data);
    expect(text(0)).toBe('time_s,cwnd_bytes\n0,1000\n0.1,2000\n');
    expect(entries[1]?.data.subarray(17)).toEqual(big.subarray(1000, 2000));
    expect(entries[5]?.data).toEqual(big);
    for (const e of entries) {
      expect(e.method).toBe(0);
      expect(e.flags & 0x0800).toBe(0x0800);
      expect(e.crc).toBe(crc32(e.data));
    }
    const file = join(dir, 'test.zip');
    writeFileSync(file, bytes);
    if (PYTHON) {
      const out = execFileSync('python3', ['-m', 'zipfile', '-t', file], { encoding: 'utf8' });
      expect(out).toContain('Done testing');
      const listed = execFileSync(
        'python3',
        [
          '-c',
          'import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);print("\\n".join(f"{i.filename}|{i.file_size}|{i.date_time}" for i in z.infolist()))',
          file,
        ],
        { encoding: 'utf8' },
      );
      expect(listed).toContain('größe ✓.json|11|(2024, 5, 17, 13, 45, 30)');
      expect(listed).toContain('big.bin|300000|');
    }
    if (UNZIP) {
      const out = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
      expect(out).toContain('No errors detected');
    }
    expect(PYTHON || UNZIP, 'no zip reader to check against').toBe(true);
  });

  it('an empty archive is valid', async () => {
    const bytes = new Uint8Array(await new ZipWriter().blob().arrayBuffer());
    expect(bytes.length).toBe(22);
    expect(parse(bytes)).toEqual([]);
  });

  it('refuses bad and repeated names and writes after close', () => {
    const zip = new ZipWriter();
    expect(() => zip.file('../x')).toThrow(/bad file name/);
    expect(() => zip.file('a//b')).toThrow(/bad file name/);
    expect(() => zip.file('')).toThrow(/bad file name/);
    const f = zip.file('a.csv');
    expect(() => zip.file('a.csv')).toThrow(/twice/);
    f.close();
    expect(() => f.write(new Uint8Array(1))).toThrow(/closed/);
  });

  it('dates before 1980 become 1980', () => {
    const { date } = dosDateTime(new Date(1970, 0, 1));
    expect(date >> 9).toBe(0);
  });
});
