import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * Waits until a server process of a test accepts connections on its loopback port. It fails at
 * once when the process exits; otherwise the calling hook's own limit bounds the wait, so a
 * starved machine only makes it slower.
 */
export async function waitUntilListening(child: ChildProcess, port: number, name: string): Promise<void> {
  for (;;) {
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (listening) return;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited at start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ends the process (SIGTERM, then waits for it) and removes its folder. */
export async function stopChild(child: ChildProcess, folder: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(folder, { recursive: true, force: true });
}
