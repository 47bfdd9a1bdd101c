// The lifetime area's measures (src/ffi/process-memory.ts): malloc_info's totals read right, and a reading that
// follows the memory the process really holds.
import assert from 'node:assert/strict';
import { alignedAlloc, free } from '../src/ffi/libc.js';
import { heapInUseFromMallocInfo, processMemory } from '../src/ffi/process-memory.js';

const XML = `<malloc version="1">
<heap nr="0">
<sizes>
</sizes>
<total type="fast" count="2" size="96"/>
<total type="rest" count="3" size="1000"/>
<system type="current" size="9000"/>
<system type="max" size="9000"/>
<aspace type="total" size="9000"/>
<aspace type="mprotect" size="9000"/>
</heap>
<total type="fast" count="4" size="200"/>
<total type="rest" count="5" size="3000"/>
<total type="mmap" count="1" size="65536"/>
<system type="current" size="20000"/>
<system type="max" size="21000"/>
<aspace type="total" size="20000"/>
<aspace type="mprotect" size="20000"/>
</malloc>
`;

describe('process memory', () => {
  it('reads the process-wide totals after the last heap: current − free chunks + mmapped chunks', () => {
    assert.equal(heapInUseFromMallocInfo(XML), 20000 - 200 - 3000 + 65536);
  });

  it('gives null for a report without the totals', () => {
    assert.equal(heapInUseFromMallocInfo('<malloc version="1"></malloc>'), null);
  });

  it('sees a native allocation while it is held (as a plugin\'s), and not the JavaScript engine\'s own buffers', async () => {
    await processMemory(); // the first reading sets up what every reading uses
    const before = await processMemory();
    const p = alignedAlloc(4 << 20, 64);
    const held = await processMemory();
    free(p);
    const after = await processMemory();
    const js: Buffer[] = Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, 1));
    const withJs = await processMemory();
    js.length = 0;
    assert.ok(before.heapInUse !== null && held.heapInUse !== null && after.heapInUse !== null && withJs.heapInUse !== null, 'glibc malloc_info is available here');
    // (within 256 KiB: the process's own allocations move the reading by some KiB either way)
    assert.ok(Math.abs(held.heapInUse - before.heapInUse - (4 << 20)) < 256 << 10, `a 4 MiB allocation showed as ${held.heapInUse - before.heapInUse} bytes`);
    assert.ok(Math.abs(after.heapInUse - before.heapInUse) < 1 << 20, `after free: ${after.heapInUse - before.heapInUse} bytes`);
    // Node's buffers are V8 external memory, which the reading leaves out: not the plugin's.
    assert.ok(Math.abs(withJs.heapInUse - after.heapInUse) < 1 << 20, `4 MiB of JavaScript buffers showed as ${withJs.heapInUse - after.heapInUse} bytes`);
    assert.ok(held.threads >= 1 && held.rss > 0);
  });
});
