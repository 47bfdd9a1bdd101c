// Every child process the CTS starts (workers, the info child, multi-node node processes) ends when its parent
// does, even while blocked in a plugin call that never returns (an IPC 'disconnect' handler never runs then):
// the kernel kills it (PR_SET_PDEATHSIG). The parent names itself in the child's environment, so a child whose
// parent died before it could ask exits at once (parent-pid.ts).
import { constants } from 'node:os';
import { setParentDeathSignal } from './libc.js';
import { PARENT_PID_ENV } from './parent-pid.js';

/** Called first thing in a child: die with the parent. */
export function exitWithParent(): void {
  const parent = Number(process.env[PARENT_PID_ENV]);
  delete process.env[PARENT_PID_ENV]; // this process's own children get their parent's pid from it, not ours
  setParentDeathSignal(constants.signals.SIGKILL);
  if (Number.isInteger(parent) && parent > 0 && process.ppid !== parent) process.exit(1);
}
