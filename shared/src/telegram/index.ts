export * from './start-param.ts';
