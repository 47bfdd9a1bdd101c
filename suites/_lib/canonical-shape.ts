// The canonical-shape check both topology areas make (a client's runtime topology, tier1.topology; a created compile
// topology, tier1.aot_topology): MakeCanonicalShapeForMemorySpace of an f32[2,3] buffer.
import type { CaseContext } from '../../src/harness/index.js';
import type { TopologyDescription } from '../../src/pjrt/index.js';
import { decodeShape } from '../../src/proto/index.js';
import * as check from './check.js';

/** xla.PrimitiveType F32 (xla_data.proto). */
const XLA_F32 = 11;

/** The canonical shape of f32[2,3] in memory kind `kind`: the buffer's element type and dimensions, a layout over them. */
export async function checkCanonicalShape(ctx: CaseContext<unknown>, topology: TopologyDescription, kind: number): Promise<void> {
  const bytes = await check.unimplementedIsUnsupported(ctx, 'MakeCanonicalShapeForMemorySpace is unsupported by default in XLA', () => topology.canonicalShape(kind, 'f32', [2, 3]));
  const shape = decodeShape(bytes);
  check.equal(shape.elementType, XLA_F32, 'the canonical shape of an f32 buffer has element type F32');
  check.equal(shape.dims, [2, 3], 'the canonical shape of f32[2,3] has dimensions [2, 3]');
  if (shape.minorToMajor.length) check.equal([...shape.minorToMajor].sort((a, b) => a - b), [0, 1], 'the canonical layout\'s minor_to_major must be a permutation of the dimensions');
}
