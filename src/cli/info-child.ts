// Child process entry of `pjrt-cts info`: the plugin is loaded here, never in the CLI's process (see isolated.ts).
// Gets its options over IPC ('advanced' serialization: bigint create options travel), prints to the inherited
// stdout/stderr, names each plugin call in the call record, and exits with runInfo's code.
import { exitWithParent } from '../ffi/exit-with-parent.js';
import type { InfoOptions } from './info.js';

exitWithParent();

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  // The reader went away (`pjrt-cts info | head`): nothing more to say.
  if (e.code === 'EPIPE') process.exit(0);
});

// The CLI is gone: nobody is left to read the answer.
process.on('disconnect', () => process.exit(1));

process.once('message', (raw) => {
  const opts = raw as InfoOptions;
  void (async () => {
    let code: number;
    try {
      const { runInfo } = await import('./info.js');
      code = await runInfo(opts);
    } catch (e) {
      process.stderr.write(`pjrt-cts: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      code = 3;
    }
    // Drain before exiting (a pipe's writes are asynchronous); a plugin may have left threads behind.
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  })();
});
