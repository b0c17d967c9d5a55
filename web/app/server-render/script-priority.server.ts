import { Transform } from 'node:stream';

/*
 * The page's scripts at low fetch priority (issue 23, docs/decisions/048-portal-first-paint.md).
 * Every portal page is rendered on the server and paints without its JavaScript, which only
 * hydrates it; module scripts never block rendering. Yet Chrome fetches React Router's
 * `<link rel="modulepreload">` at High priority, beside the stylesheet the first paint does need,
 * and so does any model of the load that takes High-priority scripts for render-blocking ones
 * (Lighthouse's). At `fetchpriority="low"` the scripts yield the connection to the stylesheet and
 * the images; they still start at once and arrive before anyone can interact.
 *
 * React Router's <Scripts> takes no attributes for these links, so the server's HTML stream gets
 * them: the tag's start is matched across chunk boundaries (a tail short of a full match is held
 * back until the next chunk).
 */

const PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW = Buffer.from(' fetchpriority="low"');

/** Inserts `fetchpriority="low"` into every modulepreload link of the HTML passing through. */
export function lowPriorityModulePreloads(): Transform {
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = text.indexOf(PRELOAD); at !== -1; at = text.indexOf(PRELOAD, from)) {
        const end = at + PRELOAD.length;
        parts.push(text.subarray(from, end), LOW);
        from = end;
      }
      // Hold back a tail that may be the start of a tag split across chunks.
      let keep = 0;
      for (let size = Math.min(PRELOAD.length - 1, text.length - from); size > 0; size--) {
        if (text.subarray(text.length - size).equals(PRELOAD.subarray(0, size))) {
          keep = size;
          break;
        }
      }
      parts.push(text.subarray(from, text.length - keep));
      held = Buffer.from(text.subarray(text.length - keep));
      callback(null, Buffer.concat(parts));
    },
    flush(callback) {
      callback(null, held);
    },
  });
}
