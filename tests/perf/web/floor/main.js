/* global document */
// The floor page of `npm run bench:web` (shared/PERFORMANCE.md G8): an empty React 18 app that
// Vite builds in the same run, so the portal's figures have a baseline measured beside them.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')).render(
  createElement(
    'main',
    null,
    createElement('h1', null, 'Floor'),
    createElement('p', null, 'An empty React 18 app, built by Vite in the same run.'),
  ),
);
