/*
 * An HTTP server that answers every request at once with `{}`, in a process of its own: the
 * load check's measure of the machine itself (support/echo.ts). Prints `echo ready <url>` once
 * it listens; SIGTERM or SIGINT stops it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { keepIdleConnectionsOpen, listenOn } from '@app/shared/service';

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
});
keepIdleConnectionsOpen(server);
server.listen(listenOn(0, '127.0.0.1'), () => {
  process.stdout.write(`echo ready http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});

const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
