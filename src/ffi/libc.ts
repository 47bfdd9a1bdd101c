// libc entry points the binding needs: dlopen/dlsym/dlerror (koffi.load cannot pass RTLD_NODELETE) and free.
import './env.js';
import koffi from 'koffi';

const libc = koffi.load('libc.so.6');

export const RTLD_LAZY = 0x1;
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

/** Address of libc free(): the deleter handed to plugins for memory we allocate with koffi.alloc (calloc). */
export const FREE_PTR: bigint = (() => {
  const p = dlsym(null, 'free');
  if (p === null) throw new Error('cannot resolve libc free()');
  return p;
})();
