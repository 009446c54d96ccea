/** Stops the app gracefully (SIGTERM, SIGKILL after 15 s), then drops its database. */
export default async function stopApp(): Promise<void> {
  const running = globalThis.browserApp;
  if (!running) return;
  if (running.process.exitCode === null) {
    const exited = new Promise((done) => running.process.once('exit', done));
    running.process.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise((done) => (timer = setTimeout(done, 15_000)));
    await Promise.race([exited, gaveUp]);
    // A pending timer would keep jest waiting after the run.
    clearTimeout(timer);
    if (running.process.exitCode === null) running.process.kill('SIGKILL');
  }
  await running.database.drop();
}
