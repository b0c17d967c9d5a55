export { createEngine } from './engine.ts';
export type { Engine, EngineOptions, MetadataSource } from './engine-options.ts';
export { HasuraError } from './errors.ts';
export { loadMetadata } from './metadata/load.ts';
export type { Metadata, TableMetadata } from './metadata/model.ts';
export { liveQueryStats } from './live/index.ts';
