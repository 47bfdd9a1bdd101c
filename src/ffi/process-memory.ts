// What this process holds, as a leak check reads it: native heap bytes in use (every malloc arena, glibc) outside the
// JavaScript engine's own, resident set size, and OS threads. Each reading follows a full garbage collection, so that
// host buffers the binding let go of (Args, host arrays) are freed first; what V8 itself holds through malloc (its
// compilers' zones, which come and go by hundreds of KiB) and array-buffer memory it still holds are subtracted, so
// that a growth is the plugin's.
import { readFileSync, readdirSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import { mallocInfoXml } from './libc.js';

export interface ProcessMemory {
  /** Bytes malloc has handed out and not got back, over all arenas, less V8's own; null without glibc's malloc_info or when another allocator serves malloc. */
  readonly heapInUse: number | null;
  readonly rss: number;
  readonly threads: number;
}

let gc: (() => void) | undefined;
/** A full, synchronous garbage collection (V8's gc(), exposed at run time for this purpose only). */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

const PAGE = 4096;

/** The process's threads now (/proc/self/task). */
export function threadCount(): number {
  return readdirSync('/proc/self/task').length;
}

function rssBytes(): number {
  // statm: size resident shared text lib data dt, in pages
  return Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * PAGE;
}

/** malloc_info's totals (the last, process-wide ones): in use = current system bytes − free chunks + mmapped chunks. */
export function heapInUseFromMallocInfo(xml: string): number | null {
  const tail = xml.slice(xml.lastIndexOf('</heap>'));
  const total = (type: string): number | undefined => {
    const m = new RegExp(`<total type="${type}" count="\\d+" size="(\\d+)"`).exec(tail);
    return m ? Number(m[1]) : undefined;
  };
  const current = /<system type="current" size="(\d+)"/.exec(tail);
  const fast = total('fast'), rest = total('rest');
  if (current === null || fast === undefined || rest === undefined) return null;
  return Number(current[1]) - fast - rest + (total('mmap') ?? 0);
}

/**
 * The process's memory and threads after two full garbage collections, each followed by a turn of the event loop:
 * V8 frees the memory behind collected array buffers (the binding's views of native memory among them) on a
 * background task that reports back through the loop, so a reading taken straight after gc() still counts them
 * (about 200 bytes a view, measured; 1.4 after a 1 ms turn).
 */
export async function processMemory(): Promise<ProcessMemory> {
  for (let i = 0; i < 2; i++) {
    collectGarbage();
    await sleep(1);
  }
  const xml = mallocInfoXml();
  const heap = xml === null ? null : heapInUseFromMallocInfo(xml);
  const v8 = getHeapStatistics();
  return { heapInUse: heap === null ? null : heap - v8.malloced_memory - v8.external_memory, rss: rssBytes(), threads: threadCount() };
}
