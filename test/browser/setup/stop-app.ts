/** Stops the app gracefully (SIGTERM), then drops its database. */
export default async function stopApp(): Promise<void> {
  const running = globalThis.browserApp;
  if (!running) return;
  const exited = new Promise((done) => running.process.once('exit', done));
  running.process.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 15_000))]);
  if (running.process.exitCode === null) running.process.kill('SIGKILL');
  await running.database.drop();
}
