// The shape a PJRT call takes as four fields (shape_dims, shape_num_dims, shape_element_type, shape_layout), written
// as XLA's C-API client writes an `xla::Shape` (pjrt_c_api_client.cc): with the shape's layout, dense major-to-minor
// unless said otherwise. The header promises nothing for a NULL shape_layout in these calls (only BufferFromHostBuffer's
// device_layout says "If nullptr, … dense"), and XLA's wrapper builds a layoutless shape from it, which its clients
// refuse or CHECK-fail on: `layout: null` passes NULL, for the one case that asks about it.
import type { Args, RawApi } from '../ffi/index.js';
import { bufferTypeOf } from './dtype.js';
import { denseLayout, memoryLayoutArgs, type LayoutSpec } from './layout.js';

export interface ShapeFields {
  dtype: string;
  dims: readonly number[];
  /** the shape's layout; default dense major-to-minor; null: shape_layout = NULL */
  layout?: LayoutSpec | null;
}

/** Writes the shape fields of `a` (a TransferLiteral, CreateUninitializedBuffer, CreateErrorBuffer or CreateAliasBuffer Args). */
export function writeShape(api: RawApi, a: Args, shape: ShapeFields): Args {
  a.i64s('shape_dims', 'shape_num_dims', shape.dims).i32('shape_element_type', bufferTypeOf(shape.dtype));
  const layout = shape.layout === undefined ? denseLayout(shape.dims.length) : shape.layout;
  if (layout !== null) a.struct('shape_layout', memoryLayoutArgs(api, layout));
  return a;
}
