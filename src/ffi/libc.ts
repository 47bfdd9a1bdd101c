// libc entry points the binding needs: dlopen/dlsym/dlerror (koffi.load cannot pass RTLD_NODELETE) and free.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import koffi from './koffi.js';

const libc = koffi.load('libc.so.6');

export const RTLD_NOW = 0x2;
export const RTLD_GLOBAL = 0x100;
export const RTLD_NODELETE = 0x1000;

const dlopenFn = libc.func('void *dlopen(const char *file, int mode)');
const dlsymFn = libc.func('void *dlsym(void *handle, const char *name)');
const dlerrorFn = libc.func('const char *dlerror(void)');

export function dlopen(path: string, mode: number): bigint | null {
  return dlopenFn(path, mode) as bigint | null;
}
export function dlsym(handle: bigint | null, name: string): bigint | null {
  return dlsymFn(handle, name) as bigint | null;
}
export function dlerror(): string {
  return (dlerrorFn() as string | null) ?? '';
}

// prctl is variadic; its integer arguments pass the same way as fixed ones.
const prctlFn = libc.func('int prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4, unsigned long arg5)');
const PR_SET_PDEATHSIG = 1;

/** Linux PR_SET_PDEATHSIG: the kernel sends `signal` to this process when its parent exits. False when refused. */
export function setParentDeathSignal(signal: number): boolean {
  return (prctlFn(PR_SET_PDEATHSIG, signal, 0, 0, 0) as number) === 0;
}

/** Address of libc free(): the deleter handed to plugins for memory we allocate with koffi.alloc (calloc). */
export const FREE_PTR: bigint = (() => {
  const p = dlsym(null, 'free');
  if (p === null) throw new Error('cannot resolve libc free()');
  return p;
})();

const posixMemalignFn = libc.func('int posix_memalign(void *memptr, size_t alignment, size_t size)');
const freeFn = libc.func('void free(void *p)');

/** posix_memalign: `size` bytes (at least 1) aligned to `alignment` (a power of two, multiple of 8), not zeroed. */
export function alignedAlloc(size: number, alignment: number): bigint {
  const out = new BigUint64Array(1);
  const rc = posixMemalignFn(out, alignment, Math.max(1, size)) as number;
  if (rc !== 0) throw new Error(`posix_memalign(${alignment}, ${size}) failed with error ${rc}`);
  return out[0]!;
}

export function free(p: bigint): void {
  freeFn(p);
}

const mmapFn = libc.func('void *mmap(void *addr, size_t length, int prot, int flags, int fd, long offset)');
const PROT_READ_WRITE = 0x1 | 0x2;
const MAP_SHARED = 0x1;
const MAP_FAILED = 0xffffffffffffffffn;

/** The first `length` bytes of the file open as `fd`, mapped shared and writable (never unmapped: for the process's life). */
export function mapSharedFile(fd: number, length: number): Uint8Array {
  const p = mmapFn(null, length, PROT_READ_WRITE, MAP_SHARED, fd, 0) as bigint | null;
  if (p === null || p === MAP_FAILED) throw new Error(`mmap of descriptor ${fd} failed`);
  return new Uint8Array(koffi.view(p, length));
}

const mmapAnonFn = libc.func('void *mmap(void *addr, size_t length, int prot, int flags, int fd, long offset)');
const mprotectFn = libc.func('int mprotect(void *addr, size_t len, int prot)');
const munmapFn = libc.func('int munmap(void *addr, size_t length)');
const PROT_NONE = 0;
const MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
const PAGE = 4096;

/** The live guard pages (their addresses): the call log must not read them, and says a byte string ends at one. */
const guardPages = new Set<bigint>();

/** Whether `p` lies in the PROT_NONE page of a live guardedBytes. */
export function isGuardPage(p: bigint): boolean {
  return guardPages.has(p - (p % BigInt(PAGE)));
}

/** Native memory the caller releases (munmap) once nothing reads it any more. */
export interface GuardedBytes {
  readonly address: bigint;
  release(): void;
}

/**
 * `data` copied to native memory so that its last byte is the last readable one: a PROT_NONE page follows at once,
 * and a read past the end faults there instead of finding whatever the heap holds. `nulAfter`: one NUL byte after
 * `data` first (a C++ std::string's terminator), then the guard page.
 */
export function guardedBytes(data: Uint8Array, opts: { nulAfter: boolean }): GuardedBytes {
  const used = data.byteLength + (opts.nulAfter ? 1 : 0);
  const readable = Math.max(PAGE, Math.ceil(used / PAGE) * PAGE);
  const total = readable + PAGE;
  const base = mmapAnonFn(null, total, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0) as bigint | null;
  if (base === null || base === MAP_FAILED) throw new Error(`mmap of ${total} bytes failed`);
  const guard = base + BigInt(readable);
  if ((mprotectFn(guard, PAGE, PROT_NONE) as number) !== 0) {
    munmapFn(base, total);
    throw new Error('mprotect of the guard page failed');
  }
  guardPages.add(guard);
  const start = guard - BigInt(used);
  if (used > 0) {
    const view = new Uint8Array(koffi.view(start, used));
    view.set(data);
    if (opts.nulAfter) view[data.byteLength] = 0;
  }
  let live = true;
  return {
    address: start,
    release: () => {
      if (live) {
        guardPages.delete(guard);
        munmapFn(base, total);
      }
      live = false;
    },
  };
}

type MallocInfoFns = { open: (path: string, mode: string) => unknown; info: (o: number, fp: bigint) => unknown; close: (fp: bigint) => unknown };
let mallocInfoFns: MallocInfoFns | null | undefined;
const RTLD_NOLOAD = 0x4;

/**
 * Whether malloc is the C library's own. An allocator interposes malloc only from ahead of the C library in the global
 * symbol order, that is preloaded (a sanitizer's runtime, tcmalloc, jemalloc); glibc's malloc_info then describes
 * arenas the process's allocations bypass. (dlsym over the global scope is no test: node's own malloc symbol is its
 * PLT entry.) A preloaded object's malloc is looked up in it and what it loads, so one that defines none finds libc's.
 */
export function mallocIsLibcs(): boolean {
  const own = dlopen('libc.so.6', RTLD_NOW | RTLD_NOLOAD);
  if (own === null) return false;
  const libcMalloc = dlsym(own, 'malloc');
  for (const preloaded of (process.env.LD_PRELOAD ?? '').split(/[:\s]+/).filter(Boolean)) {
    const h = dlopen(preloaded, RTLD_NOW | RTLD_NOLOAD);
    const m = h === null ? null : dlsym(h, 'malloc');
    if (m !== null && m !== libcMalloc) return false;
  }
  return true;
}

function bindMallocInfo(): MallocInfoFns | null {
  if (mallocInfoFns !== undefined) return mallocInfoFns;
  if (!mallocIsLibcs()) return (mallocInfoFns = null);
  try {
    mallocInfoFns = {
      open: libc.func('void *fopen(const char *path, const char *mode)'),
      info: libc.func('int malloc_info(int options, void *fp)'),
      close: libc.func('int fclose(void *fp)'),
    };
  } catch {
    mallocInfoFns = null; // a C library without malloc_info (musl)
  }
  return mallocInfoFns;
}

/**
 * glibc's malloc_info(3) report (XML, every arena), or null where the C library has none or another allocator serves
 * malloc (mallocIsLibcs). Written through a file the
 * C library opens and closes itself: a memory stream's buffer would be the C library's to free, which a preloaded
 * sanitizer's allocator does not accept from us.
 */
export function mallocInfoXml(): string | null {
  const f = bindMallocInfo();
  if (f === null) return null;
  const file = path.join(tmpdir(), `pjrt-cts-malloc-info-${process.pid}.xml`);
  const fp = f.open(file, 'w') as bigint | null;
  if (fp === null) return null;
  try {
    const rc = f.info(0, fp) as number;
    f.close(fp);
    return rc === 0 ? readFileSync(file, 'utf8') : null;
  } finally {
    rmSync(file, { force: true });
  }
}
