export * from './errors.js';
export * from './types.js';
export * from './limits.js';
export * from './options.js';
export type * from './snapshot.js';
export { validateProblem, type IndexedProblem } from './validate.js';
