// Tier 2 — host transfers: a program's stablehlo.send / stablehlo.recv with is_host_transfer = true reach the host
// through PJRT_ExecuteOptions.send_callbacks / recv_callbacks (matched by channel id); a recv callback fills the
// PJRT_CopyToDeviceStream it is given with PJRT_CopyToDeviceStream_AddChunk. A plugin that cannot compile such a
// program or run it with callbacks (UNIMPLEMENTED) is unsupported here.
import { area, type CaseContext } from '../../src/harness/index.js';
import { HostCallbackSet, type CopyToDeviceStream, type Event, type LoadedExecutable, type RecvCallback, type SendCallback } from '../../src/pjrt/index.js';
import * as check from '../_lib/check.js';
import { BASIC_EXECUTE, compileText } from '../_lib/exec.js';
import { f32, readF32 } from '../_lib/patterns.js';
import { module } from '../_lib/programs.js';
import { soleOutput } from '../_lib/outputs.js';

const t = area('tier2.host_callbacks', { tier: 2, dependsOn: BASIC_EXECUTE, requires: { slots: ['PJRT_Client_Compile', 'PJRT_LoadedExecutable_Execute'] } });

const SEND_CHANNEL = 1;
const RECV_CHANNEL = 2;
const TY = 'tensor<4xf32>';
const TOKEN = '!stablehlo.token';
const channel = (handle: number, type: number) => `channel_handle = #stablehlo.channel_handle<handle = ${handle}, type = ${type}>, is_host_transfer = true`;
const sendOp = (value: string, token: string, out: string) =>
  `    ${out} = "stablehlo.send"(${value}, ${token}) {${channel(SEND_CHANNEL, 2)}} : (${TY}, ${TOKEN}) -> ${TOKEN}`;
const recvOp = (token: string, out: string) =>
  `    ${out}:2 = "stablehlo.recv"(${token}) {${channel(RECV_CHANNEL, 3)}} : (${TOKEN}) -> (${TY}, ${TOKEN})`;

/** x -> send x to the host; return x * 2. */
const SEND_PROGRAM = module('host_send', `  func.func public @main(%arg0: ${TY}) -> ${TY} {
    %t0 = "stablehlo.after_all"() : () -> ${TOKEN}
${sendOp('%arg0', '%t0', '%t1')}
    %0 = stablehlo.add %arg0, %arg0 : ${TY}
    return %0 : ${TY}
  }`);

/** x -> receive y from the host; return x + y. */
const RECV_PROGRAM = module('host_recv', `  func.func public @main(%arg0: ${TY}) -> ${TY} {
    %t0 = "stablehlo.after_all"() : () -> ${TOKEN}
${recvOp('%t0', '%r')}
    %0 = stablehlo.add %arg0, %r#0 : ${TY}
    return %0 : ${TY}
  }`);

const X = [1, 2, 3, 4];
const FROM_HOST = [10, 20, 30, 40];
const UNSUPPORTED = 'a plugin need not support host transfers: compiling stablehlo.send/recv to the host, or executing with send/recv callbacks, may be UNIMPLEMENTED';

/** Compiles and runs `text` on f32[4] X with the callbacks; the output, read back. */
async function runWithCallbacks(ctx: CaseContext<unknown>, text: string, sends: SendCallback[], recvs: RecvCallback[]): Promise<number[]> {
  return check.unimplementedIsUnsupported(ctx, UNSUPPORTED, async () => {
    const exe: LoadedExecutable = await compileText(ctx.client, text);
    const x = await ctx.client.upload(f32(X), { dtype: 'f32', dims: [4], device: exe.addressableDevices()[0]! });
    const hostCallbacks = new HostCallbackSet(ctx.plugin.raw, sends, recvs, ctx.scope);
    return readF32(await soleOutput(await exe.execute([[x]], { hostCallbacks })).toHost({ dtype: 'f32', dims: [4] }));
  });
}

t.case('send_callback_receives_value', {
  source: 'header',
  cite: 'PJRT_ExecuteOptions.send_callbacks: "Callbacks for when send/recv ops are executed"; PJRT_SendCallbackInfo.channel_id "Used to associate this callback with the correct send op"; PJRT_SendCallback gets the chunk and total_size_in_bytes (the C API passes data major-to-minor: pjrt_c_api_wrapper_impl.cc) — the chunks are the sent value',
  catches: ['send_chunk_zeroed'],
}).run(async (ctx) => {
  const chunks: Uint8Array[] = [];
  const totals: number[] = [];
  let done = false;
  const out = await runWithCallbacks(ctx, SEND_PROGRAM, [{ channelId: SEND_CHANNEL, onChunk: (c, total, d) => { chunks.push(c); totals.push(total); done ||= d; } }], []);
  check.equal(out, X.map((v) => v * 2), 'the program around the send must still compute x * 2');
  const sent = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  chunks.reduce((at, c) => (sent.set(c, at), at + c.byteLength), 0);
  check.bytes(sent, f32(X), 'the chunks given to the send callback must be the value the program sent');
  check.ok(totals.every((n) => n === f32(X).byteLength), 'total_size_in_bytes must be the size of the sent value', `${f32(X).byteLength} on every call`, check.show(totals));
  check.ok(done, 'the last chunk of a send must come with done = true', 'done on the last call', 'never done');
});

interface StreamLog { total?: number; granule?: number; current: number[]; errors: string[] }

/** A recv callback that fills the stream granule by granule, recording what the stream reports; `finished` resolves
 *  once it has destroyed the stream. */
function granuleFiller(data: Uint8Array, log: StreamLog, extra?: (s: CopyToDeviceStream) => Promise<void>): { callback: RecvCallback; finished: Promise<void> } {
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  const callback: RecvCallback = {
    channelId: RECV_CHANNEL,
    onStream: (stream) => {
      void (async () => {
        try {
          log.total = stream.totalBytes();
          log.granule = stream.granuleSize();
          log.current.push(stream.currentBytes());
          const g = log.granule > 0 && data.byteLength % log.granule === 0 ? log.granule : data.byteLength;
          const events: Event[] = [];
          for (let at = 0; at < data.byteLength; at += g) {
            events.push(stream.addChunk(data.subarray(at, at + g)));
            log.current.push(stream.currentBytes());
          }
          for (const e of events) {
            await e.await();
            e.destroy();
          }
          if (extra) await extra(stream);
        } catch (e) {
          log.errors.push(e instanceof Error ? e.message : String(e));
        } finally {
          stream.destroy();
          finish();
        }
      })();
    },
  };
  return { callback, finished };
}

t.case('recv_callback_fills_stream', {
  source: 'header',
  cite: 'PJRT_RecvCallback: "The callback takes the ownership of the stream object" and destroys it; PJRT_CopyToDeviceStream_TotalBytes "the total amount of data the stream expects" (the received value, major-to-minor), GranuleSize "The size of the chunk added to this stream must be a multiple of this number", CurrentBytes "the amount of data the stream currently has either transferred or has buffered", AddChunk "Emplaces a new chunk of data to copy to the device"',
  catches: ['add_chunk_drops_last', 'stream_total_bytes_wrong', 'stream_current_bytes_stale', 'stream_granule_zero', 'crash_in=PJRT_CopyToDeviceStream_Destroy'],
  requires: { slots: ['PJRT_CopyToDeviceStream_AddChunk', 'PJRT_CopyToDeviceStream_TotalBytes', 'PJRT_CopyToDeviceStream_GranuleSize', 'PJRT_CopyToDeviceStream_CurrentBytes', 'PJRT_CopyToDeviceStream_Destroy', 'PJRT_Event_Await'] },
}).run(async (ctx) => {
  const data = f32(FROM_HOST);
  const log: StreamLog = { current: [], errors: [] };
  const filler = granuleFiller(data, log);
  const out = await runWithCallbacks(ctx, RECV_PROGRAM, [], [filler.callback]);
  await filler.finished;
  check.equal(log.errors, [], 'filling the stream with AddChunk must work');
  check.equal(log.total, data.byteLength, 'TotalBytes of a stream for a received f32[4] must be its 16 bytes');
  check.ok(log.granule !== undefined && log.granule > 0 && data.byteLength % log.granule === 0, 'GranuleSize must be a positive size dividing the value\'s bytes', `a divisor of ${data.byteLength}`, `${log.granule}`);
  const g = log.granule!;
  check.equal(log.current, Array.from({ length: data.byteLength / g + 1 }, (_, i) => i * g), 'CurrentBytes must count the bytes added so far (0 before the first chunk)');
  check.equal(out, X.map((v, i) => v + FROM_HOST[i]!), 'the program must compute x + the value the recv callback streamed in');
});

t.case('add_chunk_past_total_fails', {
  source: 'header',
  cite: 'PJRT_CopyToDeviceStream_AddChunk: "The returned event will indicate an error if the chunk\'s size causes the amount of transferred data to exceed the total bytes, if the stream is already complete, …"',
  control: 'the same stream accepts the value\'s own bytes first (the execution completes with them)',
  catches: ['add_chunk_accepts_overflow'],
  requires: { slots: ['PJRT_CopyToDeviceStream_AddChunk', 'PJRT_CopyToDeviceStream_TotalBytes', 'PJRT_CopyToDeviceStream_GranuleSize', 'PJRT_CopyToDeviceStream_CurrentBytes', 'PJRT_CopyToDeviceStream_Destroy', 'PJRT_Event_Await'] },
}).run(async (ctx) => {
  const data = f32(FROM_HOST);
  const log: StreamLog = { current: [], errors: [] };
  let extraError: string | null | undefined;
  const excess = async (s: CopyToDeviceStream) => {
    const e = s.addChunk(new Uint8Array(Math.max(1, s.granuleSize())));
    try {
      await e.await();
      extraError = null;
    } catch (err) {
      extraError = err instanceof Error ? err.message : String(err);
    } finally {
      e.destroy();
    }
  };
  const filler = granuleFiller(data, log, excess);
  const out = await runWithCallbacks(ctx, RECV_PROGRAM, [], [filler.callback]);
  await filler.finished;
  await check.control('the stream accepts the value\'s own bytes', () => {
    check.equal(log.errors, [], 'filling the stream with AddChunk must work');
    check.equal(out, X.map((v, i) => v + FROM_HOST[i]!), 'the execution must complete with the streamed value');
  });
  check.ok(typeof extraError === 'string', 'a chunk past the stream\'s total bytes (the stream already complete) must get an event that carries an error', 'an error', 'success');
});
