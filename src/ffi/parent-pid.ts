// How a parent names itself to a child it starts (read by exitWithParent in the child). Kept apart from
// exit-with-parent.ts, which binds libc: a parent process never loads the FFI for it.
export const PARENT_PID_ENV = 'PJRT_CTS_PARENT_PID';

/** The environment entry a parent gives a child it starts. */
export const parentPidEnv = (): Record<string, string> => ({ [PARENT_PID_ENV]: String(process.pid) });
