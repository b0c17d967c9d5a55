export { createEngine } from './engine.ts';
export type { Engine, EngineOptions, MetadataSource } from './engine-options.ts';
export { HasuraError } from './errors.ts';
