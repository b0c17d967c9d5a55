import { data } from 'react-router';

/**
 * Throws the 404 a loader answers when its path names nothing. Without a status text React
 * Router names the error "Internal Server Error" in the page's data (the HTML's hydration state).
 */
export function notFound(): never {
  throw data(null, { status: 404, statusText: 'Not Found' });
}
