// Imported first, by src/ffi/koffi.ts (which every module of the binding imports koffi from): libuv reads UV_THREADPOOL_SIZE when the pool is first used, and each
// blocking PJRT call made through koffi's `.async` holds one pool thread until it returns.
if (!process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = '16';
export {};
