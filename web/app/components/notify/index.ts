export { notify } from './store.ts';
