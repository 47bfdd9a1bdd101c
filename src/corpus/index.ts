export * from './schema.js';
export * from './values.js';
export * from './compare.js';
export * from './load.js';
export * from './capability.js';
export * from './verdict.js';
