/*
 * A service's live heap: the V8 heap still in use right after a full garbage collection, the
 * figure a leak raises and garbage does not (decision 033). Read through the inspector that
 * SIGUSR1 opens in any Node process, so the service runs exactly as `npm start` runs it (no
 * --expose-gc, no --inspect): the inspector's HeapProfiler.collectGarbage runs a full
 * collection, Runtime.evaluate reads process.memoryUsage(), and process._debugEnd() closes the
 * inspector again.
 *
 * The inspector listens on 127.0.0.1:9229, so services are read one at a time, and a port
 * already taken (a developer's debugger) is refused rather than read: the answer must come from
 * the process that was signalled, which is checked by its pid.
 */

const INSPECTOR = 'http://127.0.0.1:9229';
const OPEN_TIMEOUT_MS = 10_000;
const CALL_TIMEOUT_MS = 30_000;

interface InspectorTarget {
  webSocketDebuggerUrl: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function targets(): Promise<InspectorTarget[] | undefined> {
  try {
    const response = await fetch(`${INSPECTOR}/json/list`);
    return (await response.json()) as InspectorTarget[];
  } catch {
    return undefined;
  }
}

/** A Chrome DevTools Protocol session over the global WebSocket (Node >= 22). */
async function devtools(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot open ${url}`)), {
      once: true,
    });
  });
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Record<string, unknown>;
    if (typeof message['id'] === 'number') pending.get(message['id'])?.(message);
  });
  let next = 0;
  return {
    call(method: string, params: Record<string, unknown> = {}) {
      const id = ++next;
      return new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms`)),
          CALL_TIMEOUT_MS,
        );
        pending.set(id, (message) => {
          clearTimeout(timer);
          pending.delete(id);
          if (message['error']) reject(new Error(`${method}: ${JSON.stringify(message['error'])}`));
          else resolve((message['result'] ?? {}) as Record<string, unknown>);
        });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    /** Evaluates `expression` in the service and returns its value. */
    async evaluate(expression: string): Promise<unknown> {
      const result = await this.call('Runtime.evaluate', { expression, returnByValue: true });
      return (result['result'] as { value?: unknown } | undefined)?.value;
    },
    close: () => socket.close(),
  };
}

/** The bytes of `pid`'s V8 heap in use right after a full garbage collection. */
export async function liveHeapBytes(pid: number): Promise<number> {
  if (await targets())
    throw new Error(`${INSPECTOR} is taken by another process: cannot read process ${pid}'s heap`);
  process.kill(pid, 'SIGUSR1');
  let list: InspectorTarget[] | undefined;
  for (const started = Date.now(); !list?.length; await sleep(50)) {
    if (Date.now() - started > OPEN_TIMEOUT_MS)
      throw new Error(`process ${pid} opened no inspector within ${OPEN_TIMEOUT_MS} ms`);
    list = await targets();
  }
  const session = await devtools(list[0]!.webSocketDebuggerUrl);
  try {
    const answered = await session.evaluate('process.pid');
    if (answered !== pid)
      throw new Error(`the inspector is process ${String(answered)}'s, not ${pid}'s`);
    await session.call('HeapProfiler.collectGarbage');
    const used = await session.evaluate('process.memoryUsage().heapUsed');
    if (typeof used !== 'number') throw new Error(`process ${pid} reported no heap`);
    return used;
  } finally {
    // Closes the inspector (and its port) from inside; the answer may not arrive.
    void session.evaluate('process._debugEnd()').catch(() => undefined);
    await sleep(200);
    session.close();
    for (const started = Date.now(); (await targets()) && Date.now() - started < OPEN_TIMEOUT_MS;)
      await sleep(50);
  }
}
