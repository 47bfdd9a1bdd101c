export * from './floats.js';
export * from './tensor.js';
export * from './elementwise.js';
export { compare, select, clamp, DIRECTIONS, COMPARE_TYPES, defaultCompareType, type Direction, type CompareType } from './compare.js';
export * from './convert.js';
export * from './shape.js';
export * from './dot.js';
export * from './reduce.js';
export * from './collectives.js';
