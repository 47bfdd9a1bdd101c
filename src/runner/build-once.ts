// A file in a shared cache, produced at most once at a time however many processes want it (parallel CI shards on
// one runner share one cache): the producer works in a directory of its own, under a lock file, and the result is
// renamed into place, so a reader sees either no file or a whole one.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** How long a process waits for another's build before giving up. */
const WAIT_MS = 30 * 60_000;
const POLL_MS = 200;

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `lock` (a file holding our pid); false when another live process holds it. A dead holder's lock is broken. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  let holder = NaN;
  try {
    holder = Number(readFileSync(lock, 'utf8'));
  } catch { /* released meanwhile */ }
  // A holder that is gone (killed mid-build) leaves its lock behind; an empty file is one being written.
  if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { force: true });
  return false;
}

/**
 * Returns `target`, producing it first if it is missing (or `force`): `produce(workDir)` builds in a fresh directory
 * next to `target` and returns the path of the built file, which is renamed to `target`. Another process already
 * producing it is waited for. `onWait` is told once when this process waits.
 */
export function buildOnce(target: string, produce: (workDir: string) => string, opts: { force?: boolean; onWait?: () => void } = {}): string {
  if (!opts.force && existsSync(target)) return target;
  const dir = path.dirname(target);
  const lock = `${target}.lock`;
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  while (!tryLock(lock)) {
    if (!told) opts.onWait?.();
    told = true;
    if (Date.now() > deadline) throw new Error(`${lock}: another process has held this lock for ${WAIT_MS / 60_000} minutes (remove it if no build is running)`);
    sleep(POLL_MS);
  }
  try {
    // Built by the process we waited for.
    if (existsSync(target) && (!opts.force || told)) return target;
    const work = mkdtempSync(path.join(dir, `.build-${process.pid}-`));
    try {
      renameSync(produce(work), target);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return target;
  } finally {
    try {
      unlinkSync(lock);
    } catch { /* already gone */ }
  }
}
