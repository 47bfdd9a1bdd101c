// tuple and get_tuple_element: tuples built and taken apart inside a program (nested, through a call, with empty
// and size-1 tensors); @main's arguments and results stay tensors, as JAX's are.
import { Tensor } from '../../oracle/tensor.js';
import { FuncBuilder, moduleText, typeOf } from './mlir.js';
import { dt, PRED, program, vec, type Program } from './program.js';

const tupleType = (types: readonly string[]) => `tuple<${types.join(', ')}>`;

function nested(): Program {
  const a = vec(dt('f32'), [1.5, -0, Infinity]);
  const b = Tensor.of(dt('s32'), [], [-7n]);
  const c = vec(PRED, [true, false]);
  const f = new FuncBuilder('main');
  const [x, y, z] = [f.arg(typeOf(a)), f.arg(typeOf(b)), f.arg(typeOf(c))];
  const inner = tupleType([typeOf(b), typeOf(c)]);
  const outer = tupleType([typeOf(a), inner]);
  const t1 = f.op(`stablehlo.tuple ${y}, ${z} : ${inner}`);
  const t2 = f.op(`stablehlo.tuple ${x}, ${t1} : ${outer}`);
  const g1 = f.op(`stablehlo.get_tuple_element ${t2}[1] : (${outer}) -> ${inner}`);
  const gc = f.op(`stablehlo.get_tuple_element ${g1}[1] : (${inner}) -> ${typeOf(c)}`);
  const gb = f.op(`stablehlo.get_tuple_element ${g1}[0] : (${inner}) -> ${typeOf(b)}`);
  const ga = f.op(`stablehlo.get_tuple_element ${t2}[0] : (${outer}) -> ${typeOf(a)}`);
  const name = 'tuple_nested';
  return program({
    name,
    description: 'a tuple nested in a tuple (f32, s32 scalar, pred), taken apart with get_tuple_element; results in reverse order',
    ops: ['tuple', 'get_tuple_element'],
    text: moduleText(name, [f.text([{ value: gc, type: typeOf(c) }, { value: gb, type: typeOf(b) }, { value: ga, type: typeOf(a) }])]),
    inputs: [a, b, c],
    outputs: [c, b, a],
    catches: CATCHES,
  });
}

/** A private function returns a tuple (an empty and a size-1 tensor, and a matrix); main takes it apart. */
function throughCall(): Program {
  const e = Tensor.of(dt('f32'), [0], []);
  const one = Tensor.of(dt('f64'), [1], [-2.5]);
  const m = Tensor.of(dt('u8'), [2, 2], [0n, 255n, 1n, 128n]);
  const types = [typeOf(e), typeOf(one), typeOf(m)];
  const tt = tupleType(types);
  const h = new FuncBuilder('pack', 'private');
  const hs = types.map((t) => h.arg(t));
  const ht = h.op(`stablehlo.tuple ${hs.join(', ')} : ${tt}`);
  const f = new FuncBuilder('main');
  const xs = types.map((t) => f.arg(t));
  const t = f.op(`call @pack(${xs.join(', ')}) : (${types.join(', ')}) -> ${tt}`);
  const order = [2, 1, 0];
  const gs = order.map((i) => f.op(`stablehlo.get_tuple_element ${t}[${i}] : (${tt}) -> ${types[i]}`));
  const name = 'tuple_through_call';
  const ins = [e, one, m];
  return program({
    name,
    description: 'a tuple of an empty f32[0], a size-1 f64[1] and a u8[2,2] returned by a private function; main takes it apart in reverse',
    ops: ['tuple', 'get_tuple_element', 'call'],
    text: moduleText(name, [f.text(order.map((i, k) => ({ value: gs[k]!, type: types[i]! }))), h.text([{ value: ht, type: tt }])]),
    inputs: ins,
    outputs: order.map((i) => ins[i]!),
    catches: CATCHES,
  });
}

/** Both programs take a tuple apart at an index other than 0 (the reference plugin's tuple_index_ignored). */
const CATCHES = ['tuple_index_ignored'];

export function tuplePrograms(): Program[] {
  return [nested(), throughCall()];
}
