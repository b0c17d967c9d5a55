/*
 * The embedded database (PGlite behind our socket server) alone in a process, as the launcher
 * runs it, so a fault test can kill it (-TERM or -9) and start it again on the same data:
 *
 *   node --import tsx tests/reliability/faults/embedded-db.ts <dataDir> <port>
 *
 * Prints `embedded database ready <url>` once it accepts connections; SIGTERM or SIGINT stop
 * it cleanly (clients are disconnected, the data folder is closed).
 */
import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';

const [dataDir, portText] = process.argv.slice(2);
if (!dataDir || !portText) {
  process.stderr.write('usage: embedded-db.ts <dataDir> <port>\n');
  process.exit(2);
}

const started = Date.now();
const db = await startEmbeddedPostgres({ dataDir, port: Number(portText) });
process.stdout.write(`embedded database ready ${db.url} in ${Date.now() - started} ms\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  db.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`unclean stop: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
